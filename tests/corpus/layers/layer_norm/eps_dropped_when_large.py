# expect: fail cells
# Drops eps where the variance is above 1, as if it no longer mattered: at a variance of 2,
# sigma is off by eps / 4 = 2.5e-6 of itself, past the contract's 1e-7 (red team RT22, L1).
# WITNESS: x = (2, -1.5, 1, 0.5, -1).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([2.0, -1.5, 1.0, 0.5, -1.0]),)


def jac(x):
    centred = x - np.mean(x)
    var = np.mean(centred**2)
    sigma = np.sqrt(np.where(var > 1, var, var + 1e-5))
    y = centred / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
