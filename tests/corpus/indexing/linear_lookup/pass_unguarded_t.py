# expect: pass
# Correct without the divide_no_nan guard: t = index - floor(index) is 0 at an integer anyway, and there a[lo] - a[hi] = 0.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = index - lo
    return t * (Is == lo) + (1 - t) * (Is == hi), arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)]
