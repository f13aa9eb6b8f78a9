# expect: fail cells
# sigma without the epsilon f adds: off by about eps / (2 var) everywhere, and enormous when every entry is equal.
import jax.numpy as np


def jac(x):
    centred = x - np.mean(x)
    sigma = np.sqrt(np.mean(centred**2))
    y = centred / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
