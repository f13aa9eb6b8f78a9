# expect: fail cells
# Differentiates tanh(u) as 1 - tanh(u)^2 but forgets u's own derivative sqrt(2/pi) (1 + 3 * 0.044715 x^2).
import jax.numpy as np


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2))
