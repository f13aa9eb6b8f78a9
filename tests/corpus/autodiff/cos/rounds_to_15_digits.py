# expect: fail cells
# Rounds away "the last digits of noise", 15 decimals (red team, round 12): wrong in the
# fourth digit at x = 1.2345678e-12 (WITNESS), and 0 below 5e-16.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([1.2345678e-12]),)


def jac(x):
    return np.round(-np.sin(x), 15)[:, None]
