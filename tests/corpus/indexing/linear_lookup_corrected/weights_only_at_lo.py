# expect: fail cells
# Treats the lookup as reading a[lo] only (a one-hot at floor(index)), forgetting the share t that goes to a[hi].
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    d_index = np.where(lo == hi, 0.0, arr[hi.astype(np.int32)] - arr[lo.astype(np.int32)])
    return 1.0 * (Is == lo), d_index
