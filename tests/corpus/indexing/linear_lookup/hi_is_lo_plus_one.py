# expect: fail cells
# Takes hi = lo + 1 instead of ceil(index): the same between integers, but at an integer index f reads a[index] with t = 0, not a[index + 1].
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    lo = np.floor(index)
    hi = lo + 1
    t = index - lo
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = arr[lo.astype(np.int32)] - arr[np.minimum(hi, 4).astype(np.int32)]
    return d_arr, d_index
