# expect: fail cells
# A row of q whose largest entry is below 1e-10 of q's largest taken as noise and set to 0: the
# K block's entries of that row, about 1e-11 of the block, are then 0, where the contract allows
# 1e-12 of it (red team RT38).
# WITNESS: q's last row (6e-11, -4e-11), the others ordinary.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.3, -0.8], [0.7, 0.2], [6e-11, -4e-11]]),
    onp.array([[0.6, 0.1], [-0.4, 0.8], [0.2, -0.7]]),
    onp.array([[0.9, -0.6], [-0.3, 0.5], [0.1, 0.7]]),
)


def jac(q, k, v):
    largest = np.max(np.abs(q), axis=1, keepdims=True)
    q = np.where(largest < 1e-10 * np.max(np.abs(q)), 0.0, q)
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
