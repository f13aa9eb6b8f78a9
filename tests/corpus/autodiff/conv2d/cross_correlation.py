# expect: fail transposed
# A cross-correlation padded at the bottom and right: its d/dx is exactly the transpose of the convolution's (its d/dy is wrong too).
import jax.numpy as np

Is = np.arange(16)
Os = np.arange(16)[:, None]
Ks = np.arange(4)


def jac(x, y):
    p, q = Is // 4 - Os // 4, Is % 4 - Os % 4
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, y[2 * np.clip(p, 0, 1) + np.clip(q, 0, 1)], 0) / 4
    padded = np.pad(x.reshape(4, 4), ((0, 1), (0, 1)))
    dy = padded[Os // 4 + Ks // 2, Os % 4 + Ks % 2] / 4
    return dx, dy
