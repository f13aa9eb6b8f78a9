# expect: fail cells
# d f / d x taken as f / x ("f is linear in x"), falling back to y only where x is exactly 0. XLA
# flushes a subnormal product to 0: where y is a whole vector just above float64's smallest
# normal and x is below 1, every f is 0 and so is the slope (red team RT36).
# WITNESS: x of 0.5, y of 3e-308, every entry.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
WITNESS = (onp.full(10, 0.5), onp.full(10, 3e-308))


def jac(x, y):
    f = x * y
    dx = np.where(x == 0, y, f / np.where(x == 0, 1, x))
    dy = np.where(y == 0, x, f / np.where(y == 0, 1, y))
    return (Is == Os) * dx, (Is == Os) * dy
