Os = np.arange(16)[:, None, None]
R = np.arange(4)[None, :, None]
C = np.arange(4)[None, None, :]


def jac(x):
    return 1.0 * (Os == {{order.eq}})


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
