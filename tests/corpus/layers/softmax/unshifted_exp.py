# expect: fail cells
# The right formula, but exp(x / 2) without subtracting the largest entry: inf / inf at entries in the thousands.
import jax.numpy as np


def jac(x):
    e = np.exp(x / 2)
    s = e / np.sum(e)
    return (np.diag(s) - s[:, None] * s[None, :]) / 2
