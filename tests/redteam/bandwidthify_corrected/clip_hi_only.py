# expect: fail
# mistake: only the ceiling can run off the end, so I clipped hi and left lo alone
import jax.numpy as np

WITNESS = {"index": -0.5}


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i2 = np.clip(hi, 0, bandwidth - 1)
    Cs = np.arange(bandwidth)
    return np.where(lo == hi, 0.0, 1.0 * (Cs == i2) - (Cs == lo))
