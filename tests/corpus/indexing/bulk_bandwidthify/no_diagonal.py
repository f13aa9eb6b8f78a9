# expect: fail cells
# Repeats each row's derivative for every index s: row r of f depends on indices[r] alone, so J[r, c, s] = 0 for s != r.
import jax.numpy as np


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return np.broadcast_to(dW[:, :, None], (5, 5, 5))
