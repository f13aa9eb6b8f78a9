Is = np.arange({{n}})
Os = np.arange({{n}})[:, None]


def jac(x):
    return np.prod(np.where(Is == Os, 1, x), axis=1)[None, :]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
