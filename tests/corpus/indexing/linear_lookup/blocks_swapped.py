# expect: fail structure
# The two blocks in the wrong order: d f / d index first, although f's arguments are (arr, index).
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = np.where(lo == hi, 0.0, arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)])
    return d_index, d_arr
