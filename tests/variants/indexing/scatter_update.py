Is = np.arange({{n}})
Os = np.arange({{n}})[:, None]


def jac(vector, index, target):
    return 1.0 * ((Is == Os) & (Os != index)), 1.0 * (Is == index)


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
