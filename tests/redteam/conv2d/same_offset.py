# expect: fail
# mistake: "same" keeps the bottom-right 4x4 of the full convolution (I padded on the wrong side)
import jax.numpy as np

WITNESS = {
    "x": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05, -0.15, 0.25, 0.35, -0.45, 0.55, 0.65],
    "y": [0.3, -0.1, 0.5, 0.2],
}
P = np.arange(4)[:, None, None, None]
Q = np.arange(4)[None, :, None, None]
M = np.arange(4)[None, None, :, None]
N = np.arange(4)
S = 1  # offset of the "same" window inside the full output


def jac(x, y):
    X, Y = x.reshape(4, 4), y.reshape(2, 2)
    a, b = P + S - M, Q + S - N  # kernel tap that links output (p, q) to input (m, n)
    ok = (a >= 0) & (a < 2) & (b >= 0) & (b < 2)
    dx = np.where(ok, Y[np.clip(a, 0, 1), np.clip(b, 0, 1)], 0.0) / 4
    # for y: the input pixel that tap (a, b) reads for output (p, q)
    m, n = P + S - M[..., :2, :], Q + S - N[:2]
    ok = (m >= 0) & (m < 4) & (n >= 0) & (n < 4)
    dy = np.where(ok, X[np.clip(m, 0, 3), np.clip(n, 0, 3)], 0.0) / 4
    return dx.reshape(16, 16), dy.reshape(16, 4)
