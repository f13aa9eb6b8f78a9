# expect: fail
# mistake: I broadcast y to (3, 3, 1) with y.T[:, :, None] (mixed up which axis is which)
import jax.numpy as np

WITNESS = {
    "x": [[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], [[0.7, -0.8], [0.9, 0.05], [-0.15, 0.25]],
          [[0.35, -0.45], [0.55, 0.65], [-0.75, 0.85]]],
    "y": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]],
}
A = np.arange(3)[:, None, None, None, None, None]
B = np.arange(3)[None, :, None, None, None, None]
C = np.arange(2)[None, None, :, None, None, None]
D = np.arange(3)[None, None, None, :, None, None]
E = np.arange(3)[None, None, None, None, :, None]
F = np.arange(2)


def jac(x, y):
    eye = (A == D) & (B == E) & (C == F)
    dx = eye * y.T[:, :, None, None, None, None]
    dy = x[:, :, :, None, None] * ((A == D) & (B == E))[..., 0]
    return dx, dy
