# expect: fail
# mistake: I count x as active only above 1e-12, so denormal-sized noise never switches a unit on
import jax.numpy as np

WITNESS = {"x": [1e-13, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.diag(1.0 * (x > 1e-12))
