# expect: fail factor
# Forgets the 1 / sqrt(2) of the scores in the Q and K blocks (the V block is right).
import jax.numpy as np

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :]
    dk = g[:, :, :, None] * q[:, None, None, :]
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
