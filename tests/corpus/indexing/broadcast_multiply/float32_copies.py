# expect: fail cells
# Both blocks built from float32 copies: where x is below float32's normal range (1.2e-38), d/dy
# (which holds x) is flushed to 0.
# WITNESS: x = 1e-40 times entries in [-1, 1], y random.
import jax.numpy as np
import numpy as onp

A3 = np.arange(3)
C2 = np.arange(2)
SAME_CELL = (A3[:, None, None, None] == A3[None, None, :, None]) & (A3[None, :, None, None] == A3[None, None, None, :])
WITNESS = (1e-40 * onp.linspace(-0.95, 0.9, 18).reshape(3, 3, 2), onp.linspace(-0.8, 0.85, 9).reshape(3, 3))


def jac(x, y):
    x, y = x.astype(np.float32), y.astype(np.float32)
    same_channel = C2[:, None] == C2[None, :]
    d_x = SAME_CELL[:, :, None, :, :, None] * same_channel[None, None, :, None, None, :] * y[:, :, None, None, None, None]
    d_y = SAME_CELL[:, :, None, :, :] * x[:, :, :, None, None]
    return d_x, d_y
