# expect: fail cells
# Forgets to clip the positions to [0, 4]: below 0 and above 4 both positions clip to the same end, so the derivative is 0 there.
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(index), np.ceil(index)
    return np.where(lo == hi, 0.0, 1.0 * (Cs == lo) - (Cs == hi))
