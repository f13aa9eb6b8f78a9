A = np.arange(2)[:, None, None, None]  # output row
B = np.arange(3)[:, None, None]  # output column
C = np.arange(2)[:, None]  # input row
D = np.arange(3)  # input column


def jac(x: Shaped[Array, "2 3"]) -> Shaped[Array, "2 3 2 3"]:
    e = np.exp(x - np.max(x, axis={{axis}}, keepdims=True))
    s = e / np.sum(e, axis={{axis}}, keepdims=True)  # the softmax along the normalised axis
    # The identity, minus the softmax of the entries that share the output's normalised line.
    return 1.0 * ((A == C) & (B == D)) - {{axis.ans}} * s


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
