# expect: fail gradient
# Returns each row's derivative dW[r] with respect to its own index, a (5, 5) array, not the (5, 5, 5) Jacobian.
import jax.numpy as np


def jac(indices, bandwidth):
    Cs = np.arange(bandwidth)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    return np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
