# expect: fail cells
# Right geometry, but the kernel is not flipped: tap (p, q) weighted by K[1 - p, 1 - q].
import jax.numpy as np

Is = np.arange(16)
Os = np.arange(16)[:, None]
Ks = np.arange(4)


def jac(x, y):
    p, q = Os // 4 - Is // 4, Os % 4 - Is % 4
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, y[2 * (1 - np.clip(p, 0, 1)) + (1 - np.clip(q, 0, 1))], 0) / 4
    padded = np.pad(x.reshape(4, 4), ((1, 0), (1, 0)))
    dy = padded[Os // 4 - (1 - Ks // 2) + 1, Os % 4 - (1 - Ks % 2) + 1] / 4
    return dx, dy
