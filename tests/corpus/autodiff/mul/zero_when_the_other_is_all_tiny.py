# expect: fail cells
# "When every entry of the other factor is below 1e-100 the slope is negligible": d f / d x = 0
# where max |y| < 1e-100. The block is then its own scale, and the contract is relative to it
# (red team RT36). WITNESS: x of 0.5, y of 5e-101, every entry.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
WITNESS = (onp.full(10, 0.5), onp.full(10, 5e-101))


def jac(x, y):
    dx = np.where(np.max(np.abs(y)) < 1e-100, 0.0, y)
    dy = np.where(np.max(np.abs(x)) < 1e-100, 0.0, x)
    return (Is == Os) * dx, (Is == Os) * dy
