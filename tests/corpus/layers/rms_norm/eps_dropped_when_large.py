# expect: fail cells
# Drops eps where the mean square is above 1, as if it no longer mattered: at a mean square of
# 2, r is off by eps / 4 = 2.5e-6 of itself, past the contract's 1e-7 (red team RT22, R1).
# WITNESS: x = (2, -1.5, 1, 0.5, -1).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([2.0, -1.5, 1.0, 0.5, -1.0]),)


def jac(x):
    ms = np.mean(x**2)
    r = np.sqrt(np.where(ms > 1, ms, ms + 1e-5))
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
