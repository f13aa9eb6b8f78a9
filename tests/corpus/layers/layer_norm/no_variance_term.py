# expect: fail cells
# Treats sigma as a constant: (I - 1/N) / sigma, without the -y y^T / N of the variance.
import jax.numpy as np


def jac(x):
    centred = x - np.mean(x)
    sigma = np.sqrt(np.mean(centred**2) + 1e-5)
    return (np.eye(5) - 1 / 5) / sigma
