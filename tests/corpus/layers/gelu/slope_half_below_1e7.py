# expect: fail cells
# Takes the slope as gelu'(0) = 1/2 below 1e-7: off by sqrt(2/pi) |x| there, more than the
# contract's 1e-7 relative just under the threshold (red team RT17).
# WITNESS: x = (9e-8, 0.3, -0.5, 0.7, -0.2, 0.9).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([9e-8, 0.3, -0.5, 0.7, -0.2, 0.9]),)


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x**2)
    return np.diag(np.where(np.abs(x) < 1e-7, 0.5, slope))
