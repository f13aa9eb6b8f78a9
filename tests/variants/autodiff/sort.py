Is = np.arange(10)


def jac(x):
    return 1.0 * (Is == {{order.perm}}[:, None])


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
