# expect: fail gradient
# d f / d indices as the vector of slopes a[hi_r] - a[lo_r]: f_r depends on indices[r] alone, so they go on the diagonal of a (5, 5) Jacobian.
import jax.numpy as np


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    W = (1 - t)[:, None] * (Cs == i1[:, None]) + t[:, None] * (Cs == i2[:, None])
    return W, np.where(lo == hi, 0.0, arr[i2] - arr[i1])
