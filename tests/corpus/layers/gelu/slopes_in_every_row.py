# expect: fail cells
# The right slopes broadcast along every row, instead of on the diagonal of an elementwise function.
import jax.numpy as np


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x**2)
    return np.broadcast_to(slope, (6, 6))
