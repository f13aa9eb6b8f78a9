# expect: fail cells
# Forgets to clip the positions: below 0 the weight on position -1 is silently dropped, so the derivative is e_0 instead of 0.
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(index), np.ceil(index)
    return np.where(lo == hi, 0.0, 1.0 * (Cs == hi) - (Cs == lo))
