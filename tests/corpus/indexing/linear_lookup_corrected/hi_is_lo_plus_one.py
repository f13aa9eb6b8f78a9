# expect: fail cells
# Takes hi = lo + 1 instead of ceil(index): right between integers, wrong slope at an integer index (where it is 0).
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo = np.floor(index)
    hi = lo + 1
    t = index - lo
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    d_index = arr[np.minimum(hi, 4).astype(np.int32)] - arr[lo.astype(np.int32)]
    return d_arr, d_index
