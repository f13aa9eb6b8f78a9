# expect: fail cells
# Takes hi = lo + 1: right between integers, but at an integer index the lookup is a[index] with a zero slope.
import jax.numpy as np


def jac(arr, indices):
    Cs = np.arange(5)
    lo = np.floor(indices)
    t = indices - lo
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(lo + 1, 0, 4).astype(np.int32)
    W = (1 - t)[:, None] * (Cs == i1[:, None]) + t[:, None] * (Cs == i2[:, None])
    return W, np.diag(arr[i2] - arr[i1])
