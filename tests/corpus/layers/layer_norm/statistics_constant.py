# expect: fail cells
# Both statistics as constants: the identity over sigma.
import jax.numpy as np


def jac(x):
    sigma = np.sqrt(np.mean((x - np.mean(x))**2) + 1e-5)
    return np.eye(5) / sigma
