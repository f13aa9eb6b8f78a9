# expect: pass
# Correct: the weights with np.where on index arrays, and an explicit zero slope at an integer index.
import jax.numpy as np


def jac(arr, index):
    lo, hi = np.floor(index).astype(np.int32), np.ceil(index).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    Is = np.arange(5)
    d_arr = np.where(Is == lo, 1 - t, 0.0) + np.where(Is == hi, t, 0.0)
    return d_arr, np.where(lo == hi, 0.0, arr[hi] - arr[lo])
