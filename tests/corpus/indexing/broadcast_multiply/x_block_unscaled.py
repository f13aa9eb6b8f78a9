# expect: fail cells
# d f / d x as the identity on (3, 3, 2), forgetting that each entry of x is scaled by y[a, b].
import jax.numpy as np

A6, B6, C6 = np.arange(3)[:, None, None, None, None, None], np.arange(3)[None, :, None, None, None, None], np.arange(2)[None, None, :, None, None, None]
D6, E6, F6 = np.arange(3)[:, None, None], np.arange(3)[None, :, None], np.arange(2)
A5, B5 = np.arange(3)[:, None, None, None, None], np.arange(3)[None, :, None, None, None]
D5, E5 = np.arange(3)[:, None], np.arange(3)


def jac(x, y):
    d_x = 1.0 * (A6 == D6) * (B6 == E6) * (C6 == F6)
    d_y = (A5 == D5) * (B5 == E5) * x[:, :, :, None, None]
    return d_x, d_y
