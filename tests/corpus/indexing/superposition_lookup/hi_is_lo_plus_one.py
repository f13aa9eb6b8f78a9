# expect: fail cells
# Takes hi = lo + 1: the same between integers, but at an integer index f reads a[index] alone, with slope 0.
import jax.numpy as np


def jac(arr, index):
    Cs = np.arange(5)
    lo = np.floor(index)
    t = index - lo
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(lo + 1, 0, 4).astype(np.int32)
    w = t * (Cs == i1) + (1 - t) * (Cs == i2)
    return w[None, :], (arr[i1] - arr[i2])[None]
