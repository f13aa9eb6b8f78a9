# expect: fail
# mistake: "the product of the other entries": I left out the entries equal to x_i (by value, not by position)
import jax.numpy as np

WITNESS = {"x": [0.0, 0.0, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.prod(np.where(x[None, :] == x[:, None], 1.0, x[None, :]), axis=1)[None, :]
