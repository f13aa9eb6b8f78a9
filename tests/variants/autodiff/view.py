A = np.arange(4)


def jac(x):
    return 1.0 * (({{flip.r}} == A[None, None, :, None]) & ({{flip.c}} == A[None, None, None, :]))


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
