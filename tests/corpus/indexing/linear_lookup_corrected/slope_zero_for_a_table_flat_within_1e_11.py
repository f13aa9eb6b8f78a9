# expect: fail cells
# Takes a table whose entries all agree to 1e-11 of its size as flat, so the index as moving
# nothing: the slope in the index is one entry, its own scale, and 0 is wholly wrong there
# (red team RT38).
# WITNESS: arr = 0.6 (1 + (0, 3, -2, 5, 1) 1e-12), index 2.4.
import jax.numpy as np
import numpy as onp

Is = np.arange(5)
WITNESS = (0.6 * (1 + onp.array([0.0, 3e-12, -2e-12, 5e-12, 1e-12])), onp.float64(2.4))


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = (1 - t) * (Is == i1) + t * (Is == i2)
    flat = np.max(arr) - np.min(arr) <= 1e-11 * np.max(np.abs(arr))
    return d_arr, np.where(whole | flat, 0.0, arr[i2] - arr[i1])
