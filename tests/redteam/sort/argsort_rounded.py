# expect: fail
# mistake: I round to 4 decimals before argsort so float noise can't reorder equal values
import jax.numpy as np

WITNESS = {"x": [0.12341, 0.12339, -0.5, 0.3, 0.1, -0.7, 0.6, -0.2, 0.45, -0.95]}


def jac(x):
    order = np.argsort(np.round(x, 4))
    return 1.0 * (order[:, None] == np.arange(10)[None, :])
