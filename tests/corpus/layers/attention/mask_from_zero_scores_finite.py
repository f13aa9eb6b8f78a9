# expect: fail cells
# The same mask built from the values, filled with -1e9 instead of -inf: finite everywhere, and a
# row of scores all 0 gets uniform weights over the future positions too.
# WITNESS: q's middle row all zeros.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
WITNESS = (onp.array([[0.3, -0.6], [0.0, 0.0], [0.5, 0.2]]), onp.array([[0.4, 0.9], [-0.7, 0.1], [0.2, -0.8]]),
           onp.array([[0.9, -0.1], [-0.5, 0.6], [0.3, 0.7]]))


def jac(q, k, v):
    scores = np.tril(q @ k.T / np.sqrt(2.0))
    scores = np.where(scores == 0, -1e9, scores)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
