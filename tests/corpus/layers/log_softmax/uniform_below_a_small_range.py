# expect: fail cells
# Takes a row's weights as uniform when its range is below 2e-7: one entry 1.9e-7 above the other
# two moves its weight by 1.3 times the contract (red team RT33's A3, in another normaliser).
# WITNESS: x = ((2.1, 2.1 + 1.9e-7, 2.1), (0.1, -0.5, 0.3)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[2.1, 2.1 + 1.9e-7, 2.1], [0.1, -0.5, 0.3]]),)
A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    flat = (np.max(x, axis=1) - np.min(x, axis=1) < 2e-7)[:, None]
    s = np.where(flat, 1 / 3, s)
    return 1.0 * ((A == C) & (B == D)) - (A == C) * s
