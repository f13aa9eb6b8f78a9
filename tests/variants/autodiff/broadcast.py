A, B, C, D = np.ix_(*[np.arange(4)] * 4)  # output row, output column, input row, input column
a3, b3, k3 = np.ix_(*[np.arange(4)] * 3)  # output row, output column, index of y


def jac(x, y):
    return ((A == C) & (B == D)) * y[{{axis.var}}], ({{axis.idx}}3 == k3) * x[:, :, None]


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
