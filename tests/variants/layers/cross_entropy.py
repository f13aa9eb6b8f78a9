Ks = np.arange(4)


def jac(logits: Shaped[Array, "2 4"], labels: Int[Array, "2"]) -> Shaped[Array, "2 4"]:
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)  # the softmax of each example's logits
    # The softmax from the log-sum-exp, minus the one-hot of the label from the picked logit.
    return (s - (Ks == labels[:, None])) {{reduce.ans}}


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
