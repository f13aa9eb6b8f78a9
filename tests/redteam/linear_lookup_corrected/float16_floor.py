# expect: fail
# mistake: I took floor and ceil of a float16 copy of the index (positions are small integers anyway)
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 2.9999}
Is = np.arange(5)


def jac(arr, index):
    xi = index.astype(np.float16)
    lo, hi = np.floor(xi).astype(np.int32), np.ceil(xi).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    d_arr = (1 - t) * (Is == lo) + t * (Is == hi)
    d_index = np.where(lo == hi, 0.0, arr[hi] - arr[lo])
    return d_arr, d_index
