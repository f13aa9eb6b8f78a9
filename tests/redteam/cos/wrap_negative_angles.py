# expect: fail
# mistake: I wrapped negative angles into [0, 2pi) with 2 * 3.14159 before taking -sin
import jax.numpy as np

WITNESS = {"x": [-1e-4]}


def jac(x):
    x = np.where(x < 0, x + 2 * 3.14159, x)
    return -np.sin(x)[:, None]
