# expect: fail cells
# Computed in float32, "plenty for probabilities": right to float32's precision on [-3, 3], but
# logits close together around 1000 lose their differences when cast, and the weights move by
# 4e-5, 6.5 times the float32 contract at the witness (red team RT25, #8; the declared offsets
# reach it).
# WITNESS: x = ((1000.3, 1000.1, 999.9), (0.1, 0.2, 0.3)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1000.3, 1000.1, 999.9], [0.1, 0.2, 0.3]]),)


def jac(x):
    x = x.astype(np.float32)
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    A = np.arange(2)[:, None, None, None]
    B = np.arange(3)[:, None, None]
    C = np.arange(2)[:, None]
    D = np.arange(3)
    return 1.0 * ((A == C) & (B == D)) - (A == C) * s
