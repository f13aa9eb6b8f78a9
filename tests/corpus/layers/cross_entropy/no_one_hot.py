# expect: fail cells
# Cross-entropy's gradient without the one-hot: the softmax over 2, as if the picked logit were a constant.
import jax.numpy as np


def jac(logits, labels):
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True) / 2
