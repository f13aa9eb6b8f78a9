# expect: fail cells
# Treats the log-sum-exp as a constant: only the identity of the x term.
import jax.numpy as np

A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    return 1.0 * ((A == C) & (B == D))
