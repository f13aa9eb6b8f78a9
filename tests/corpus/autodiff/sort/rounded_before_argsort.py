# expect: fail cells
# Sorts x rounded to 15 decimals (to tame rounding noise): entries closer together than 1e-15
# round to one value, and argsort of the tie keeps their index order, not x's order.
# WITNESS: x = 1e-17 times entries in [-1, 1].
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
WITNESS = (1e-17 * onp.array([0.35, -0.6, 0.9, 0.1, -0.25, 0.55, -0.8, 0.45, 0.05, -0.15]),)


def jac(x):
    return 1.0 * (Is == np.argsort(np.round(x, 15))[:, None])
