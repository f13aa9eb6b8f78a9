BAGS = np.array([0, 0, 1, 1, 1, 2])  # the bag of each id, as in f
Cs = np.arange(2)[:, None, None]
Ds = np.arange(2)


def jac(table: Shaped[Array, "5 2"], ids: Int[Array, "6"]) -> Shaped[Array, "3 2 5 2"]:
    in_bag = BAGS[None, :] == np.arange(3)[:, None]  # (3, 6): which ids each bag holds
    reads = ids[None, :, None] == np.arange(5)  # (1, 6, 5): which row each id reads
    counts = np.sum(in_bag[:, :, None] * reads, axis=1)  # (3, 5): how often bag b reads row r
    return counts[:, None, :, None] * (Cs == Ds){{mode.ans}}


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
