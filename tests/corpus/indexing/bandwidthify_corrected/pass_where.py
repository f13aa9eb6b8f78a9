# expect: pass
# Correct: +1 at the clipped ceiling, -1 at the clipped floor, nothing at an integer.
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    between = lo != hi
    return np.where(between & (Cs == i2), 1.0, 0.0) - np.where(between & (Cs == i1), 1.0, 0.0)
