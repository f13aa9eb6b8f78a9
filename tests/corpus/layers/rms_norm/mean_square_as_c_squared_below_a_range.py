# expect: fail cells
# x x^T taken as c^2 once the entries' range is within 2e-7 of the largest, "equal to rounding":
# off by 4 times the contract with two entries 2e-7 above three others (red team RT34's F10; the
# spreads were relative and never came that close).
# WITNESS: x = 0.9 times (1 + 1.99e-7, 1 + 1.99e-7, 1, 1, 1).
import jax.numpy as np
import numpy as onp

WITNESS = (0.9 * onp.array([1 + 1.99e-7, 1 + 1.99e-7, 1.0, 1.0, 1.0]),)


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    level = np.max(x) - np.min(x) <= 2e-7 * np.max(np.abs(x))
    c = np.mean(x)
    return np.where(level, np.eye(5) / r - c * c / (5 * r**3), np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3))
