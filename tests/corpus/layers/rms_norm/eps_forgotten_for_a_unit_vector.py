# expect: fail nearly-right
# Takes a unit vector (its sum of squares within 1e-9 of 1) as normalised to an RMS of
# 1 / sqrt(5): r = 1 / sqrt(5), so eps is forgotten there (red team RT38).
# WITNESS: x = (0.6, -0.8, 0, 0, 0).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([0.6, -0.8, 0.0, 0.0, 0.0]),)


def jac(x):
    r = np.where(np.abs(np.sum(x**2) - 1) <= 1e-9, 1 / np.sqrt(5.0), np.sqrt(np.mean(x**2) + 1e-5))
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
