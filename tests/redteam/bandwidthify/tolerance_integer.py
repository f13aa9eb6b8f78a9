# expect: fail
# mistake: floats are never exactly integers, so "at an integer" means within 1e-4 of one
import jax.numpy as np

WITNESS = {"index": 2.00005}


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    Cs = np.arange(bandwidth)
    at_int = np.abs(index - np.round(index)) < 1e-4
    return np.where(at_int | (i1 == i2), 0.0, 1.0 * (Cs == i1) - (Cs == i2))
