# expect: pass
# mistake: none: astype(int) truncates instead of flooring, which only matters on (-1, 0), where both positions clip to 0 anyway
import jax.numpy as np

Cs = np.arange(5)


def jac(arr, index):
    lo = index.astype(np.int32)
    hi = np.ceil(index).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    t = np.clip(t, 0, 1)
    w = (1 - t) * (Cs == i1) + t * (Cs == i2)
    return w[None, :], np.where(i1 == i2, 0.0, arr[i2] - arr[i1])[None]
