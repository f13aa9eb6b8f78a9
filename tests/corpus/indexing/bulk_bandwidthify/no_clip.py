# expect: fail cells
# Forgets to clip the positions: an index below 0 or above 4 gets -e_0 or e_4 where both positions clip to one end (derivative 0).
import jax.numpy as np

Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == lo[:, None]) - (Cs == hi[:, None]))
    return dW[:, :, None] * (Rs == Ss)
