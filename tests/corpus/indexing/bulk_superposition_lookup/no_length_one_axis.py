# expect: fail shape
# Drops f's length-1 axis: blocks of shape (5, 5), where f has shape (5, 1) and each block (5, 1, 5).
import jax.numpy as np

Ks = np.arange(5)


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    W = t[:, None] * (Cs == i1[:, None]) + (1 - t)[:, None] * (Cs == i2[:, None])
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return np.sum(W, axis=0)[:, None] * (Cs[:, None] == Ks), arr[:, None] * dW.T
