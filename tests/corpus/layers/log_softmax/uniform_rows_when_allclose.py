# expect: fail cells
# A row whose entries are allclose (numpy's default tolerance) gets the softmax 1/3: entries
# 9e-6 apart near 0.9 move it by about 3e-6, past the contract (red team RT22, S2).
# WITNESS: x = ((0.9, 0.900009, 0.899991), (0.1, -0.5, 0.3)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[0.9, 0.900009, 0.899991], [0.1, -0.5, 0.3]]),)
A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    level = np.all(np.abs(x - x[:, :1]) <= 1e-8 + 1e-5 * np.abs(x[:, :1]), axis=1, keepdims=True)
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = np.where(level, 1 / 3, e / np.sum(e, axis=1, keepdims=True))
    return 1.0 * ((A == C) & (B == D)) - (A == C) * s
