# expect: fail cells
# Submits the notebook's swapped weights (t on a[lo], 1 - t on a[hi]) for the corrected interpolation.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = np.where(lo == hi, 0.0, arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)])
    return d_arr, d_index
