# expect: fail
# mistake: each position gets its weight from one index, so the column total is the column max
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "indices": [1.3, 1.6, 3.5, 0.2, 2.7]}
Cs = np.arange(5)


def jac(arr, indices):
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, 4), np.clip(hi, 0, 4)
    t = np.clip(np.where(lo == hi, 0.0, indices - lo), 0, 1)
    W = t[:, None] * (Cs == i1[:, None]) + (1 - t)[:, None] * (Cs == i2[:, None])
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    d_arr = (np.max(W, axis=0)[:, None] * (Cs[:, None] == Cs))[:, None, :]
    d_idx = (arr[:, None] * dW.T)[:, None, :]
    return d_arr, d_idx
