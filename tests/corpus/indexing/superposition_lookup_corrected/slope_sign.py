# expect: fail sign
# Right weights, but the notebook's slope a[lo] - a[hi]: the corrected interpolation rises from a[lo] to a[hi].
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    w = (1 - t) * (Cs == i1) + t * (Cs == i2)
    return w[None, :], np.where(lo == hi, 0.0, arr[i1] - arr[i2])[None]
