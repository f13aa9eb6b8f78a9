# expect: fail
# mistake: an index within 1e-12 of an integer is that integer (float noise), so its slope is 0
import jax.numpy as np

WITNESS = {"index": 2.0000000000001}


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    Cs = np.arange(bandwidth)
    at_int = np.abs(index - np.round(index)) < 1e-12
    return np.where(at_int | (i1 == i2), 0.0, 1.0 * (Cs == i2) - (Cs == i1))
