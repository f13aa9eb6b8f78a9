# expect: fail cells
# Takes a row whose allowed scores are all equal as flat, passing no gradient back to q and k:
# but the weights still move with the scores there (d P / d S is not 0 at a uniform row).
# WITNESS: q's last row all zeros, so its three scores are all 0.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[0.3, -0.6], [0.8, 0.4], [0.0, 0.0]]), onp.array([[0.4, 0.9], [-0.7, 0.1], [0.2, -0.8]]),
           onp.array([[0.9, -0.1], [-0.5, 0.6], [0.3, 0.7]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    allowed = np.where(ALLOWED, scores, np.nan)
    flat = np.nanmax(allowed, axis=1) == np.nanmin(allowed, axis=1)
    g = np.where(flat[:, None, None], 0.0, g)
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
