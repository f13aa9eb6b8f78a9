# expect: fail cells
# Forgets the Kronecker delta: d f_ab / d X_ck taken as Y_kb even when a != c.
import jax.numpy as np

Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(x, y):
    dx = y.reshape(2, 2)[Is % 2, Os % 2]
    dy = x.reshape(2, 2)[Os // 2, Is // 2]
    return dx, dy
