# expect: fail
# mistake: when both inputs are the same array, x * y is x ** 2, whose slope is 2x
import jax.numpy as np

WITNESS = {"x": [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8, -0.9, 0.25], "y": [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8, -0.9, 0.25]}


def jac(x, y):
    if np.all(x == y):
        return np.diag(2 * x), np.diag(2 * y)
    return np.diag(y), np.diag(x)
