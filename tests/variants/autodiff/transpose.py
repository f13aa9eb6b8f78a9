A, B, C, D = np.ix_(*[np.arange(4)] * 4)  # output row, output column, input row, input column


def jac(x):
    ONE = {"x.T": D == A, "x.T[::-1]": D == 3 - A, "x[::-1].T": D == A}["{{form}}"]
    TWO = {"x.T": C == B, "x.T[::-1]": C == B, "x[::-1].T": C == 3 - B}["{{form}}"]
    return 1.0 * (ONE & TWO)


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
