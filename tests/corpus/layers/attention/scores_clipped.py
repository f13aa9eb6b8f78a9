# expect: fail cells
# Clips the scores to [-10, 10] before masking, to keep exp in range: right while every score is
# inside, wrong where q and k reach the corners of their 3 times region (scores up to 12.7).
# WITNESS: q rows 0 and 1 at (2.99, 2.99), k rows 0 and 1 at (2.99, 2.99) and (-2.99, -2.99).
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[2.99, 2.99], [2.99, 2.99], [0.2, -0.5]]), onp.array([[2.99, 2.99], [-2.99, -2.99], [0.4, 0.1]]),
           onp.array([[0.5, -0.2], [0.3, 0.8], [-0.6, 0.1]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, np.clip(q @ k.T / np.sqrt(2.0), -10.0, 10.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
