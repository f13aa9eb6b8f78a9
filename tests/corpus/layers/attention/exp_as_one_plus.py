# expect: fail cells
# Takes exp(d) as 1 + d where |d| < 1e-3 (d: a score minus its row's largest): off by d^2 / 2,
# 5e-7 relative at the threshold, past the contract where two scores of a row are that close
# (red team RT17).
# WITNESS: row 1's two scores 9e-4 apart.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[0.3, -0.8], [1.0, 0.0], [-0.7, 0.6]]), onp.array([[0.5, 0.2], [0.50127, -0.3], [-0.6, 0.4]]),
           onp.array([[0.2, -0.7], [0.9, 0.1], [-0.4, 0.5]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    d = scores - np.max(scores, axis=1, keepdims=True)
    e = np.where(np.abs(d) < 1e-3, 1 + d, np.exp(d))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
