# expect: fail cells
# The slope taken as 1 past 5.2, "where GELU is the identity": up to 5.398 it is still more than
# 1 + 1e-7, outside the contract (red team RT25; the declared intervals reach it).
# WITNESS: x = (5.21, 1.0, 0.5, -0.2, 2.0, 3.0): the first slope is 1.0000004.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([5.21, 1.0, 0.5, -0.2, 2.0, 3.0]),)


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x**2)
    return np.diag(np.where(x > 5.2, 1.0, slope))
