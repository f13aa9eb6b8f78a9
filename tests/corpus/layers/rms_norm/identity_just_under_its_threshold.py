# expect: fail cells
# Where every entry is below 1e-8, takes f as x / sqrt(eps): the rank-one term it drops,
# x x^T / (N r^3), is about 2e-12 of the identity's scale just under 1e-8, past the contract's
# 1e-12, and inside it below 7e-9, so only a draw in that band of a sixth of a decade shows it
# (red team RT19, RN5).
# WITNESS: x = 9.5e-9 times (1, -0.9, 0.8, -0.7, 0.95).
import jax.numpy as np
import numpy as onp

WITNESS = (9.5e-9 * onp.array([1.0, -0.9, 0.8, -0.7, 0.95]),)


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    full = np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
    return np.where(np.max(np.abs(x)) < 1e-8, np.eye(5) / np.sqrt(1e-5), full)
