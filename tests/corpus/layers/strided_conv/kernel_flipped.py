# expect: fail flipped cells
# Flips the kernel as numpy's convolve does: the layer is a cross-correlation, tap k weighs w_k, not w_{2-k}.
import jax.numpy as np

Is = np.arange(7)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(3)


def jac(x, w):
    k = Is + 1 - 2 * Os
    dx = np.where((k >= 0) & (k <= 2), w[np.clip(2 - k, 0, 2)], 0.0)
    return dx, np.pad(x, 1)[windows][:, ::-1]
