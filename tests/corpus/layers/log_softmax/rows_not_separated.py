# expect: fail cells
# Subtracts the softmax for every pair of rows: the [a = c] that keeps each row's normaliser to itself is missing.
import jax.numpy as np

A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    return 1.0 * ((A == C) & (B == D)) - s
