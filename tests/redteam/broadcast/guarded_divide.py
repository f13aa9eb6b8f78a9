# expect: fail
# mistake: d f / d y is f / y (which is x), with 0 where y is 0 to avoid dividing by zero
import jax.numpy as np

WITNESS = {
    "x": [[0.1, 0.2, 0.3, 0.4], [0.5, -0.6, 0.7, 0.8], [0.9, -0.1, 0.2, 0.3], [0.4, 0.5, -0.6, 0.7]],
    "y": [0.0, 0.5, -0.3, 0.7],
}
A = np.arange(4)[:, None, None, None]
B = np.arange(4)[None, :, None, None]
C = np.arange(4)[None, None, :, None]
D = np.arange(4)


def jac(x, y):
    out = x * y[None, :]
    dx = ((A == C) & (B == D)) * y[None, :, None, None]
    per = np.where(y[None, :] == 0, 0.0, out / np.where(y[None, :] == 0, 1.0, y[None, :]))
    dy = per[:, :, None] * (np.arange(4)[None, :, None] == np.arange(4))
    return dx, dy
