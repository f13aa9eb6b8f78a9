# expect: fail cells
# The rank-one term over r^2 instead of r^3: the quotient rule's 1/r^2 times dr/dx forgets dr/dx's own 1/r.
import jax.numpy as np


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**2)
