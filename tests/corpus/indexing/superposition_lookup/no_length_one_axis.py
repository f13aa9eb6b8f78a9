# expect: fail broadcast
# Forgets that f has shape (1,): returns blocks of shapes (5,) and (), where (1, 5) and (1,) are expected.
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    w = t * (Cs == i1) + (1 - t) * (Cs == i2)
    return w, np.where(lo == hi, 0.0, arr[i1] - arr[i2])
