# expect: fail nearly-right
# Takes an input whose mean square is 1 "up to rounding" (within 1e-9) as normalised already:
# r = 1, so eps is forgotten there, 5e-6 off relatively (red team RT38).
# WITNESS: x = (1, -1, 1, -1, 1), mean square exactly 1.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([1.0, -1.0, 1.0, -1.0, 1.0]),)


def jac(x):
    square = np.mean(x**2)
    r = np.where(np.abs(square - 1) <= 1e-9, 1.0, np.sqrt(square + 1e-5))
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
