# expect: fail transposed
# Input axes first: shape (4, 4, 16) instead of (16, 4, 4).
import jax.numpy as np

R = np.arange(4)[:, None, None]
C = np.arange(4)[None, :, None]
Os = np.arange(16)[None, None, :]


def jac(x):
    return 1.0 * (Os == 4 * R + C)
