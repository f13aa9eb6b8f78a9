# expect: fail sign
# Copies the notebook's derivative e_lo - e_hi on every row; with the weights the right way round it is e_hi - e_lo.
import jax.numpy as np

Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return dW[:, :, None] * (Rs == Ss)
