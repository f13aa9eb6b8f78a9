# expect: fail cells
# Keeps the interpolation's slope past the ends (extrapolating from the nearest pair), but f is held flat at a[0] below 0 and a[4] above 4.
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    w = (1 - t) * (Cs == i1) + t * (Cs == i2)
    j = np.clip(lo, 0, 3).astype(np.int32)
    return w[None, :], np.where(lo == hi, 0.0, arr[j + 1] - arr[j])[None]
