# expect: fail cells
# d f[a, b, c] / d y[a, b] as x[a, b, 0] + x[a, b, 1] for both channels: that is the gradient of the sum over c, not each channel's own x.
import jax.numpy as np

A6, B6, C6 = np.arange(3)[:, None, None, None, None, None], np.arange(3)[None, :, None, None, None, None], np.arange(2)[None, None, :, None, None, None]
D6, E6, F6 = np.arange(3)[:, None, None], np.arange(3)[None, :, None], np.arange(2)
A5, B5 = np.arange(3)[:, None, None, None, None], np.arange(3)[None, :, None, None, None]
D5, E5 = np.arange(3)[:, None], np.arange(3)


def jac(x, y):
    d_x = (A6 == D6) * (B6 == E6) * (C6 == F6) * y[:, :, None, None, None, None]
    d_y = (A5 == D5) * (B5 == E5) * np.sum(x, axis=2)[:, :, None, None, None] * np.ones((1, 1, 2, 1, 1))
    return d_x, d_y
