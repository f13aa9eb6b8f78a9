# expect: fail cells
# Takes a row's softmax as uniform when its logits' range is below 2e-7: one logit 1.9e-7 above
# the other three moves its weight by 1.4 times the contract (red team RT33's A3, in another
# normaliser).
# WITNESS: logits = ((1.6, 1.6, 1.6 + 1.9e-7, 1.6), (0.1, -0.5, 0.3, 0.7)), labels = (0, 3).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1.6, 1.6, 1.6 + 1.9e-7, 1.6], [0.1, -0.5, 0.3, 0.7]]), onp.array([0, 3]))
Ks = np.arange(4)


def jac(logits, labels):
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    flat = (np.max(logits, axis=1) - np.min(logits, axis=1) < 2e-7)[:, None]
    return (np.where(flat, 0.25, s) - (Ks == labels[:, None])) / 2
