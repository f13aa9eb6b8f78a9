# expect: fail cells
# The log-sum-exp's softmax taken down the columns (axis 0) while f normalises each row (axis 1).
import jax.numpy as np

A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    e = np.exp(x - np.max(x, axis=0, keepdims=True))
    s = e / np.sum(e, axis=0, keepdims=True)
    return 1.0 * ((A == C) & (B == D)) - (B == D) * s
