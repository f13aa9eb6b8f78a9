# expect: fail cells
# Takes hi = lo + 1 instead of ceil(index): right between integers, but at an integer inside [0, 4) the derivative is 0, not e_lo - e_(lo+1).
import jax.numpy as np


def jac(index, bandwidth):
    Cs = np.arange(bandwidth)
    lo = np.floor(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(lo + 1, 0, bandwidth - 1)
    return 1.0 * (Cs == i1) - (Cs == i2)
