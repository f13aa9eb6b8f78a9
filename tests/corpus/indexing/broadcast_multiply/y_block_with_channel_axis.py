# expect: fail extra-axis
# Differentiates by the padded y[:, :, None], giving d f / d y shape (3, 3, 2, 3, 3, 1): y itself has shape (3, 3).
import jax.numpy as np

A6, B6, C6 = np.arange(3)[:, None, None, None, None, None], np.arange(3)[None, :, None, None, None, None], np.arange(2)[None, None, :, None, None, None]
D6, E6, F6 = np.arange(3)[:, None, None], np.arange(3)[None, :, None], np.arange(2)


def jac(x, y):
    d_x = (A6 == D6) * (B6 == E6) * (C6 == F6) * y[:, :, None, None, None, None]
    d_y = (A6 == D6) * (B6 == E6) * x[:, :, :, None, None, None]
    return d_x, d_y
