Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x, y):
    return {{form.ans}}


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
