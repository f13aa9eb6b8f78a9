# expect: fail
# mistake: the slope is f(x) / x, with 0 where x is 0 to dodge the division by zero
import jax.numpy as np

WITNESS = {"x": [0.0, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.diag(np.where(x == 0, 0.0, -x / np.where(x == 0, 1.0, x)))
