Is = np.arange(10)
Os = np.arange({{width.out}})[:, None]


def jac(x):
    return ((Is >= Os) & (Is < Os + {{width}})) / {{width}}


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
