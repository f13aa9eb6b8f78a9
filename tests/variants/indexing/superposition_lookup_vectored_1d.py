def jac(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "1 5"], Shaped[Array, "1 5"]]:
    return indices[None, :], arr[None, :]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
