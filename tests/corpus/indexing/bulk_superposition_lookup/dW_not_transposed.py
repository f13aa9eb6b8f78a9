# expect: fail cells
# d f[c] / d indices[s] = a_c dW[c, s], forgetting that row s of dW is the derivative of row s of W, so it is a_c dW[s, c].
import jax.numpy as np

Ks = np.arange(5)


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    W = t[:, None] * (Cs == i1[:, None]) + (1 - t)[:, None] * (Cs == i2[:, None])
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    d_arr = (np.sum(W, axis=0)[:, None] * (Cs[:, None] == Ks))[:, None, :]
    return d_arr, (arr[:, None] * dW)[:, None, :]
