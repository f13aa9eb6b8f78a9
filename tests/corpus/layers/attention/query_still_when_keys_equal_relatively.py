# expect: fail cells
# Takes d f / d q as 0 once k's rows agree to 1e-7 of their size ("the scores are flat"): the
# Q block is then a sum cancelling to 1e-7 of its terms, small but not 0 (red team RT34's F15b).
# WITNESS: q, v random in the domain, every entry of k 0.7 to within 5e-8 of it, relatively.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.3, -0.2], [0.5, 0.4], [-0.6, 0.7]]),
    0.7 * (1 + onp.array([[0.0, 0.0], [4e-8, -3e-8], [-5e-8, 2e-8]])),
    onp.array([[0.9, -0.5], [-0.7, 0.4], [0.2, 0.8]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    flat = np.max(np.abs(k - k[0])) <= 1e-7 * np.max(np.abs(k))
    gq = np.where(flat, 0.0, g)
    gk = g
    dq = (I == C) * (gq @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = gk[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
