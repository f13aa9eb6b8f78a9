# expect: pass
# Correct: the weights as a hat function max(0, 1 - |c - clip(index)|), its slope read off the two clipped positions.
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    x = np.clip(index, 0, 4)
    w = np.maximum(0.0, 1 - np.abs(Cs - x))
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    return w[None, :], np.where(lo == hi, 0.0, arr[i2] - arr[i1])[None]
