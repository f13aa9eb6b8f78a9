# expect: fail transposed
# Inputs along the rows: shape (25, 15) instead of (15, 25).
import jax.numpy as np

Is = np.arange(15)
Os = np.arange(25)[:, None]


def jac(x):
    return 1.0 * (Os == Is + 10)
