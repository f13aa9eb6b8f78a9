# expect: fail cells
# Takes an argument whose every entry is below 1e-305 as zero "up to underflow": its slopes
# in the other argument, its own entries, are normal numbers there and above the floor the
# near-bottom draws are compared to (red team RT38).
# WITNESS: x = 0.5, y at 5e-306 to 9e-306.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
WITNESS = (onp.full(10, 0.5), onp.linspace(5e-306, 9e-306, 10))


def jac(x, y):
    dx = np.where(np.max(np.abs(y)) < 1e-305, 0.0, y)
    dy = np.where(np.max(np.abs(x)) < 1e-305, 0.0, x)
    return (Is == Os) * dx, (Is == Os) * dy
