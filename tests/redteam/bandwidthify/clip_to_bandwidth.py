# expect: fail
# mistake: I clipped the positions to [0, bandwidth] instead of [0, bandwidth - 1]
import jax.numpy as np

WITNESS = {"index": 4.3}


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, bandwidth), np.clip(hi, 0, bandwidth)
    Cs = np.arange(bandwidth)
    return np.where(lo == hi, 0.0, 1.0 * (Cs == i1) - (Cs == i2))
