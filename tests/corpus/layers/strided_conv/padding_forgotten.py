# expect: fail shifted
# Forgets the padding when matching inputs to taps: tap k = i - 2 o instead of i + 1 - 2 o.
import jax.numpy as np

Is = np.arange(7)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(3)


def jac(x, w):
    k = Is - 2 * Os
    dx = np.where((k >= 0) & (k <= 2), w[np.clip(k, 0, 2)], 0.0)
    return dx, np.pad(x, 1)[windows]
