# expect: fail
# mistake: I wrote the ceiling as floor(x + 1 - 1e-6), which is right at integers
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 2.0000005}
Is = np.arange(5)


def jac(arr, index):
    lo = np.floor(index)
    hi = np.floor(index + 1 - 1e-6)
    t = np.where(hi == lo, 0.0, (index - lo) / np.where(hi == lo, 1.0, hi - lo))
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = np.where(hi == lo, 0.0, arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)])
    return d_arr, d_index
