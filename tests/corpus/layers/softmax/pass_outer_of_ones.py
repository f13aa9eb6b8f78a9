# expect: pass
# Correct: s_o ([o = i] - s_i) / 2 written as s (I - 1 s^T) / 2, row by row.
import jax.numpy as np


def jac(x):
    z = x / 2
    e = np.exp(z - np.max(z))
    s = e / np.sum(e)
    return s[:, None] * (np.eye(5) - s[None, :]) / 2
