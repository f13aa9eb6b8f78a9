# expect: fail cells
# Where every score of a row is below 1e-6, takes the row's weights as uniform: the Q and K
# blocks then lose the first-order term that is their whole value there (red team RT17).
# WITNESS: q = 7e-7 times entries in [-1, 1], k and v random.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (7e-7 * onp.array([[1.0, -0.8], [0.5, 0.9], [-0.7, 0.6]]), onp.array([[0.9, -0.5], [0.3, 0.8], [-0.6, 0.4]]),
           onp.array([[0.2, -0.7], [0.9, 0.1], [-0.4, 0.5]]))


def jac(q, k, v):
    raw = q @ k.T / np.sqrt(2.0)
    scores = np.where(ALLOWED, raw, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    tiny = np.max(np.where(ALLOWED, np.abs(raw), 0.0), axis=1, keepdims=True) < 1e-6
    p = np.where(tiny, ALLOWED / np.sum(ALLOWED, axis=1, keepdims=True), p)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
