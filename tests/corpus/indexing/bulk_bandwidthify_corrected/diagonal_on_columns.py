# expect: fail cells
# Puts the diagonal between the weight's column c and the index s, J[r, c, s] = [c = s] ..., instead of between the row r and s.
import jax.numpy as np

Cs3 = np.arange(5)[:, None]
Ss = np.arange(5)


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None]))
    return dW[:, :, None] * (Cs3 == Ss)
