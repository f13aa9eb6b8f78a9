# expect: fail cells
# "q is zero up to rounding, so the scores are flat and the keys get no gradient" once every entry
# of q is below 1e-100, and likewise for q once k is: the K block is G q / sqrt(2), as small as q
# but not 0 (red team RT39's F6).
# WITNESS: q at 1e-150 times entries in [-1, 1], k and v ordinary.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    1e-150 * onp.array([[0.3, -0.8], [0.7, 0.2], [-0.5, 0.9]]),
    onp.array([[0.6, 0.1], [-0.4, 0.8], [0.2, -0.7]]),
    onp.array([[0.9, -0.6], [-0.3, 0.5], [0.1, 0.7]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    dk = np.where(np.max(np.abs(q)) < 1e-100, 0.0, dk)
    dq = np.where(np.max(np.abs(k)) < 1e-100, 0.0, dq)
    return dq, dk, dv
