# expect: fail cells
# Keeps the mean's term but treats sigma as a constant: ([a = c] - 1/B) / sigma_d for each feature.
import jax.numpy as np

A = np.arange(4)[:, None, None, None]
D = np.arange(2)[:, None, None]
C = np.arange(4)[:, None]
E = np.arange(2)


def jac(x):
    sigma = np.sqrt(np.var(x, axis=0) + 1e-5)
    return ((A == C) - 1 / 4) / sigma[None, :, None, None] * (D == E)
