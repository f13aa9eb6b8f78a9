# expect: fail cells
# Reads arr[lo] and arr[hi] without clipping: below 0, arr[-1] wraps round to arr[4], so the slope is not 0 there.
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    w = t * (Cs == i1) + (1 - t) * (Cs == i2)
    slope = arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)]
    return w[None, :], np.where(lo == hi, 0.0, slope)[None]
