# expect: fail cells
# Layer norm without the mean's term: (I - y y^T / N) / sigma, as if the mean did not move with x.
import jax.numpy as np


def jac(x):
    centred = x - np.mean(x)
    sigma = np.sqrt(np.mean(centred**2) + 1e-5)
    y = centred / sigma
    return (np.eye(5) - y[:, None] * y[None, :] / 5) / sigma
