# expect: fail cells
# Every row's derivative repeated for every index s, as if each row depended on all five indices.
import jax.numpy as np


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None]))
    return dW[:, :, None] * np.ones(5)
