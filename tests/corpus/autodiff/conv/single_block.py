# expect: error structure
# Returns only the Jacobian with respect to x.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(6)[:, None]


def jac(x, y):
    k = Is - Os
    return np.where((k >= 0) & (k <= 4), y[np.clip(4 - k, 0, 4)], 0) / 5
