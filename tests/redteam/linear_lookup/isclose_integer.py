# expect: fail
# mistake: comparing floor == ceil is fragile, so I treat an index np.isclose to an integer as that integer
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 2.00001}
Is = np.arange(5)


def jac(arr, index):
    at_int = np.isclose(index, np.round(index))
    lo = np.where(at_int, np.round(index), np.floor(index))
    hi = np.where(at_int, np.round(index), np.ceil(index))
    t = np.where(at_int, 0.0, index - lo)
    d_arr = t * (Is == lo) + (1 - t) * (Is == hi)
    d_index = np.where(at_int, 0.0, arr[lo.astype(np.int32)] - arr[hi.astype(np.int32)])
    return d_arr, d_index
