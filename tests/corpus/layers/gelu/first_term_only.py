# expect: fail cells
# Half the product rule: (1 + tanh u) / 2, as if x alone varied.
import jax.numpy as np


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t))
