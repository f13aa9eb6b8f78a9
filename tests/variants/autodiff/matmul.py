Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(x, y):
    X, Y = x.reshape(2, 2), y.reshape(2, 2)
    a, b, i0, i1 = Os // 2, Os % 2, Is // 2, Is % 2  # output (a, b); input (i0, i1)
    return {
        "X Y": ((a == i0) * Y[i1, b], (b == i1) * X[a, i0]),
        "X^T Y": ((a == i1) * Y[i0, b], (b == i1) * X[i0, a]),
        "X Y^T": ((a == i0) * Y[b, i1], (b == i0) * X[a, i1]),
    }["{{form}}"]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
