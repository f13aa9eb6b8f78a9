# expect: fail
# mistake: floor(x) is round(x - 0.5), and the upper position is one more
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 1.0}
Cs = np.arange(5)


def jac(arr, index):
    lo = np.round(index - 0.5)
    hi = lo + 1
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    t = np.clip(index - lo, 0, 1)
    w = (1 - t) * (Cs == i1) + t * (Cs == i2)
    return w[None, :], np.where(i1 == i2, 0.0, arr[i2] - arr[i1])[None]
