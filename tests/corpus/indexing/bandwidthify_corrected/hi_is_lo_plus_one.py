# expect: fail cells
# Takes hi = lo + 1: right between integers, but the safe division makes the derivative 0 at an integer index.
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo = np.floor(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(lo + 1, 0, bandwidth - 1)
    return 1.0 * (Cs == i2) - (Cs == i1)
