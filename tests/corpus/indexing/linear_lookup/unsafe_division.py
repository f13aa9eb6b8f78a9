# expect: fail nonfinite
# Computes t = (index - lo) / (hi - lo) as written, without divide_no_nan's guard: NaN at an integer index.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = (index - lo) / (hi - lo)
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = (arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)]) / (hi - lo)
    return d_arr, d_index
