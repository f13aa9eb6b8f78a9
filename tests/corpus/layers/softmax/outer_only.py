# expect: fail cells
# Only the rank-one part, -s s^T / T: the diagonal s_o [o = i] of the quotient rule is missing.
import jax.numpy as np


def jac(x):
    e = np.exp(x / 2 - np.max(x / 2))
    s = e / np.sum(e)
    return -s[:, None] * s[None, :] / 2
