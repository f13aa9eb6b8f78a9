# expect: error structure
# Returns a derivative for bandwidth too (zeros): bandwidth is a fixed int, so jac returns the index block alone.
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    return np.where(lo == hi, 0.0, 1.0 * (Cs == i1) - (Cs == i2)), np.zeros(bandwidth)
