# expect: fail cells
# Computed in float32 throughout: where q is below float32's normal range (1.2e-38), the block in
# K (proportional to q) is flushed to 0.
# WITNESS: q = 1e-40 times entries in [-1, 1], k and v random.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (1e-40 * onp.array([[0.3, -0.5], [0.7, 0.2], [-0.4, 0.9]]), onp.array([[0.5, -0.2], [0.3, 0.8], [-0.6, 0.1]]),
           onp.array([[0.1, 0.4], [-0.7, 0.2], [0.9, -0.3]]))


def jac(q, k, v):
    q, k, v = q.astype(np.float32), k.astype(np.float32), v.astype(np.float32)
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(np.float32(2.0)), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
