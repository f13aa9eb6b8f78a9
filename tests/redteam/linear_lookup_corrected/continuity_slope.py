# expect: fail
# mistake: the corrected f is continuous at an integer, so I used the slope of the segment to its right there
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 2.0}
Is = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index).astype(np.int32), np.ceil(index).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    d_index = np.where(lo == hi, arr[np.minimum(lo + 1, 4)] - arr[lo], arr[hi] - arr[lo])
    return d_arr, d_index
