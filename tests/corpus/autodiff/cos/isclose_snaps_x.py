# expect: fail cells
# The slope is 0 at x = 0, so an x that np.isclose calls 0 (|x| below 1e-8) is snapped to 0
# (red team, round 12). WITNESS: x = 3e-9, where the slope is -3e-9, not 0.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([3e-9]),)


def jac(x):
    return np.where(np.isclose(x, 0.0), 0.0, -np.sin(x))[:, None]
