# expect: fail sign
# Right weights, but the slope a[lo] - a[hi] copied from the notebook's version: the line rises from a[lo] to a[hi].
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    d_index = arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)]
    return d_arr, d_index
