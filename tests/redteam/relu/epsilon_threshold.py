# expect: fail
# mistake: I treat anything below 1e-3 as "not active", to be safe near the kink
import jax.numpy as np

WITNESS = {"x": [5e-4, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.diag(1.0 * (x > 1e-3))
