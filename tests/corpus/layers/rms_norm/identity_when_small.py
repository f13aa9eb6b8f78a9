# expect: fail cells
# Where every entry is below 1e-7, takes f as x / sqrt(eps), a scaled identity: the rank-one
# term it drops is x x^T / (N r^3), 1e-9 of the identity's scale at 1e-7, past the contract's
# 1e-12 off the diagonal (red team RT17).
# WITNESS: x = 9e-8 times (1, -0.9, 0.8, -0.7, 0.95).
import jax.numpy as np
import numpy as onp

WITNESS = (9e-8 * onp.array([1.0, -0.9, 0.8, -0.7, 0.95]),)


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    full = np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
    return np.where(np.max(np.abs(x)) < 1e-7, np.eye(5) / np.sqrt(1e-5), full)
