# expect: fail shape
# Thinks in 2-D: right values, shaped (4, 4, 4, 4) and (4, 4, 2, 2) instead of (16, 16) and (16, 4).
import jax.numpy as np

R, C, S, T = np.ix_(*[np.arange(4)] * 4)
R2, C2, P2, Q2 = np.ix_(np.arange(4), np.arange(4), np.arange(2), np.arange(2))


def jac(x, y):
    K = y.reshape(2, 2)
    p, q = R - S, C - T
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, K[np.clip(p, 0, 1), np.clip(q, 0, 1)], 0) / 4
    padded = np.pad(x.reshape(4, 4), ((1, 0), (1, 0)))
    return dx, padded[R2 - P2 + 1, C2 - Q2 + 1] / 4
