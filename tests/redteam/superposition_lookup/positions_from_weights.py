# expect: fail
# mistake: the slope is arr where the weight is t minus arr where the weight is 1 - t (I found the positions from w)
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 2.5}
Cs = np.arange(5)


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    t = np.clip(np.where(lo == hi, 0.0, index - lo), 0, 1)
    w = t * (Cs == i1) + (1 - t) * (Cs == i2)
    slope = np.sum(arr * (w == t)) - np.sum(arr * (w == 1 - t))
    return w[None, :], np.where(lo == hi, 0.0, slope)[None]
