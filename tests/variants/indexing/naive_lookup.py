def jac(arr, index):
    return 1.0 * (np.arange(5) == {{end.pos}}), np.zeros(())


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
