# expect: fail cells
# Takes a feature whose variance is 1 "up to rounding" (within 1e-9) as normalised already:
# sigma = 1 for it, so eps is forgotten there (red team RT38).
# WITNESS: both columns (1, -1, 1, -1), variance exactly 1.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0], [-1.0, -1.0]]),)
A = np.arange(4)[:, None, None, None]  # output example
D = np.arange(2)[:, None, None]  # output feature
C = np.arange(4)[:, None]  # input example
E = np.arange(2)  # input feature


def jac(x):
    centred = x - np.mean(x, axis=0)
    variance = np.mean(centred**2, axis=0)
    sigma = np.where(np.abs(variance - 1) <= 1e-9, 1.0, np.sqrt(variance + 1e-5))
    y = centred / sigma
    within = (A == C) - 1 / 4 - y[:, :, None, None] * y.T[None, :, :, None] / 4
    return within / sigma[None, :, None, None] * (D == E)
