# expect: fail cells
# Slope a[lo + 1] - a[lo] everywhere: right between integers, but at an integer index the safe division makes it 0.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    i = lo.astype(np.int32)
    return d_arr, arr[np.minimum(i + 1, 4)] - arr[i]
