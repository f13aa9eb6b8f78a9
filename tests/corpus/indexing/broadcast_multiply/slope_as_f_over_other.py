# expect: fail cells
# The slope in each factor taken as f divided by that factor ("f is linear in it"), the formula
# only where the factor is below 1e-10. XLA flushes a subnormal product to 0: with y a whole
# argument just above float64's smallest normal and x below 1, every f is 0, and so is the slope
# in y (red team RT36). WITNESS: x of 0.5, y of 3e-308, every entry.
import jax.numpy as np
import numpy as onp

A3 = np.arange(3)
C2 = np.arange(2)
SAME_CELL = (A3[:, None, None, None] == A3[None, None, :, None]) & (A3[None, :, None, None] == A3[None, None, None, :])
WITNESS = (onp.full((3, 3, 2), 0.5), onp.full((3, 3), 3e-308))


def _over(f, d, fallback):
    small = np.abs(d) < 1e-10
    return np.where(small, fallback, f / np.where(small, 1, d))


def jac(x, y):
    f = x * y[:, :, None]
    dx = _over(f, x, np.broadcast_to(y[:, :, None], x.shape))
    dy = _over(f, y[:, :, None], x)
    same_channel = C2[:, None] == C2[None, :]
    d_x = SAME_CELL[:, :, None, :, :, None] * same_channel[None, None, :, None, None, :] * dx[:, :, :, None, None, None]
    d_y = SAME_CELL[:, :, None, :, :] * dy[:, :, :, None, None]
    return d_x, d_y
