# expect: fail broadcast
# d f / d index as a scalar: f has shape (1,) and index shape (), so the block has shape (1,).
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    w = (1 - t) * (Cs == i1) + t * (Cs == i2)
    return w[None, :], np.where(lo == hi, 0.0, arr[i2] - arr[i1])
