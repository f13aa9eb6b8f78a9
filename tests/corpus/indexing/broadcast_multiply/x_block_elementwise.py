# expect: fail gradient
# d f / d x as y broadcast to x's shape (3, 3, 2): the derivative of each output by its own input, not the full (3, 3, 2, 3, 3, 2) Jacobian.
import jax.numpy as np

A5, B5 = np.arange(3)[:, None, None, None, None], np.arange(3)[None, :, None, None, None]
D5, E5 = np.arange(3)[:, None], np.arange(3)


def jac(x, y):
    d_y = (A5 == D5) * (B5 == E5) * x[:, :, :, None, None]
    return np.broadcast_to(y[:, :, None], (3, 3, 2)), d_y
