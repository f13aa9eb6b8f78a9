# expect: fail cells
# Where a row's visible scores are allclose (numpy's default: 1e-5 relative), takes its weights
# as uniform while k's rows differ: scores 3e-6 apart near 0.5 move the true weights by about
# 1e-6 (red team RT22, A1). Random draws never bring a row's scores this close; q's rows along
# one axis, with k's entries on it close together, do.
# WITNESS: q's rows along the first axis; k's first column within 3e-6 of 0.8, its second random.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[0.9, 0.0], [-0.7, 0.0], [0.8, 0.0]]),
           onp.array([[0.8, -0.5], [0.8 * (1 + 3e-6), 0.7], [0.8 * (1 - 2e-6), 0.1]]),
           onp.array([[0.2, -0.7], [0.9, 0.1], [-0.4, 0.5]]))


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    scores = np.where(ALLOWED, raw, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    first = raw[:, :1]
    level = np.all(~ALLOWED | (np.abs(raw - first) <= 1e-8 + 1e-5 * np.abs(first)), axis=1, keepdims=True)
    p = np.where(level, ALLOWED / np.sum(ALLOWED, axis=1, keepdims=True), p)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
