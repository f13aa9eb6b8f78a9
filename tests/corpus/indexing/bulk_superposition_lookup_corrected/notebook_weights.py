# expect: fail cells
# Builds W from the notebook's bandwidthify (weights swapped) instead of bandwidthify_corrected.
import jax.numpy as np


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    W = t[:, None] * (Cs == i1[:, None]) + (1 - t)[:, None] * (Cs == i2[:, None])
    return W, np.diag(np.where(lo == hi, 0.0, arr[i1] - arr[i2]))
