# expect: fail factor
# Forgets the division by 4 in both blocks.
import jax.numpy as np

Is = np.arange(16)
Os = np.arange(16)[:, None]
Ks = np.arange(4)


def jac(x, y):
    p, q = Os // 4 - Is // 4, Os % 4 - Is % 4
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, y[2 * np.clip(p, 0, 1) + np.clip(q, 0, 1)], 0)
    padded = np.pad(x.reshape(4, 4), ((1, 0), (1, 0)))
    return dx, padded[Os // 4 - Ks // 2 + 1, Os % 4 - Ks % 2 + 1]
