# expect: fail cells
# Differentiates the mean of the squares as a sum: the rank-one term lacks its 1/N.
import jax.numpy as np


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    return np.eye(5) / r - x[:, None] * x[None, :] / r**3
