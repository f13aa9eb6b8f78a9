# expect: fail cells
# The two blocks read off float32 copies of x and y: where x is below float32's normal range
# (1.2e-38) it is flushed to 0, and so is d/dy.
# WITNESS: x = 1e-39 times entries in [-1, 1], y random.
import jax.numpy as np
import numpy as onp

Is = np.arange(4)
Os = np.arange(4)[:, None]
WITNESS = (1e-39 * onp.array([-0.4, 0.9, 0.25, -0.6]), onp.array([0.3, -0.8, 0.55, 0.1]))


def jac(x, y):
    x, y = x.astype(np.float32), y.astype(np.float32)
    dx = (Os // 2 == Is // 2) * y.reshape(2, 2)[Is % 2, Os % 2]
    dy = (Os % 2 == Is % 2) * x.reshape(2, 2)[Os // 2, Is // 2]
    return dx, dy
