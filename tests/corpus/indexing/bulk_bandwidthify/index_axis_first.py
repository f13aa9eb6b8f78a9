# expect: fail transposed
# Puts the differentiated index s first, J[s, r, c], where the output's axes (r, c) come first: J[r, c, s].
import jax.numpy as np


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return np.eye(5)[:, :, None] * dW[None, :, :]
