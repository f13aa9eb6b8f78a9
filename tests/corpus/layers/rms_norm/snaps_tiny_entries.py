# expect: fail cells
# Sets entries below 1e-10 of the largest to 0 before differentiating: the rank-one term's
# entries x_i x_j / (N r^3) in that row and column are then 0 where they are 1e-11 of the scale
# (red team RT17).
# WITNESS: x = (5e-11, 0.5, -0.7, 0.3, 0.9).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([5e-11, 0.5, -0.7, 0.3, 0.9]),)


def jac(x):
    x = np.where(np.abs(x) < 1e-10 * np.max(np.abs(x)), 0.0, x)
    r = np.sqrt(np.mean(x**2) + 1e-5)
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
