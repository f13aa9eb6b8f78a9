# expect: fail cells
# Gives a row uniform weights when its allowed scores are all equal "up to rounding"
# (math.isclose's relative 1e-9): off by about that share of the weights, beyond the contract
# only where an entry of the K block crosses zero, as it does when a value sits at its column's
# mean (red team RT38).
# WITNESS: q's rows along the first axis, k's first column within 4e-10 of 0.95, v[0, 0] at the
# mean of v's first column.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.9, 0.0], [-0.8, 0.0], [0.7, 0.0]]),
    onp.array([[0.95, 0.3], [0.95 * (1 + 4e-10), -0.6], [0.95 * (1 - 4e-10), 0.8]]),
    onp.array([[(0.57 - 0.8) / 2, -0.48], [0.57, 0.21], [-0.8, -0.14]]),
)


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    scores = np.where(ALLOWED, raw, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    top = np.max(scores, axis=1, keepdims=True)
    close = np.where(ALLOWED, np.abs(raw - top) <= 1e-9 * np.maximum(np.abs(raw), np.abs(top)), True)
    p = np.where(np.all(close, axis=1, keepdims=True), ALLOWED / np.sum(ALLOWED, axis=1, keepdims=True), p)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
