# expect: fail cells
# Takes a row's weights as uniform once its scores agree to 1e-7 of their size: right where the
# scores are near 1, but at scores of 6 such a row's weights still differ by more than the
# contract (red team RT34's F10b, 21 times it).
# WITNESS: q's rows (2.9, 0), k's first column 2.9 to within 9e-8 of it, relatively.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[2.9, 0.0], [2.9, 0.0], [2.9, 0.0]]),
    onp.array([[2.9, 0.5], [2.9 * (1 + 9e-8), -0.4], [2.9 * (1 + 4e-8), 0.9]]),
    onp.array([[0.9, -0.5], [-0.7, 0.4], [0.2, 0.8]]),
)


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    scores = np.where(ALLOWED, raw, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    hi = np.max(scores, axis=1, keepdims=True)
    lo = np.min(np.where(ALLOWED, raw, np.inf), axis=1, keepdims=True)
    flat = hi - lo <= 1e-7 * np.max(np.abs(np.where(ALLOWED, raw, 0.0)), axis=1, keepdims=True)
    p = np.where(flat, ALLOWED / np.sum(ALLOWED, axis=1, keepdims=True), p)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    gq = gk = g
    dq = (I == C) * (gq @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = gk[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
