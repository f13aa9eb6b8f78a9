# expect: fail cells
# Answers the notebook's version (the sum over axis 0: a_c times the column sums of W) with the corrected weights.
import jax.numpy as np

Ks = np.arange(5)


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    W = (1 - t)[:, None] * (Cs == i1[:, None]) + t[:, None] * (Cs == i2[:, None])
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None]))
    return np.sum(W, axis=0)[:, None] * (Cs[:, None] == Ks), arr[:, None] * dW.T
