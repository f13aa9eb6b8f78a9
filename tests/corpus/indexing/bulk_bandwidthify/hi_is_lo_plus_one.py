# expect: fail cells
# Takes hi = lo + 1: right between integers, but an integer index has t = 0 with a zero derivative, so its row is 0.
import jax.numpy as np

Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo = np.floor(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(lo + 1, 0, bandwidth - 1)
    dW = 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None])
    return dW[:, :, None] * (Rs == Ss)
