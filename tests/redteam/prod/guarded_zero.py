# expect: fail
# mistake: prod(x) / x_i, with 0 where x_i is 0 so nothing divides by zero
import jax.numpy as np

WITNESS = {"x": [0.0, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.where(x == 0, 0.0, np.prod(x) / np.where(x == 0, 1.0, x))[None, :]
