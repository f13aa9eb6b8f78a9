# expect: fail cells
# Submits the intended interpolation, (1 - t) on a[lo] and t on a[hi] with slope a[hi] - a[lo], for the notebook's swapped version.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    d_index = np.where(lo == hi, 0.0, arr[hi.astype(np.int32)] - arr[lo.astype(np.int32)])
    return d_arr, d_index
