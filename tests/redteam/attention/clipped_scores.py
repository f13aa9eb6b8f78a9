# expect: fail
# mistake: the scores clipped to [-1, 1] before the softmax "for stability": right while every score is within 1, off by 0.03 and more beyond
import jax.numpy as np

WITNESS = {
    "q": [[0.9, -0.8], [0.95, 0.7], [-0.9, 0.85]],
    "k": [[0.99, -0.9], [0.2, 0.1], [-0.95, 0.9]],
    "v": [[1.0, -0.5], [0.3, 0.8], [-0.7, 0.2]],
}
I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))


def jac(q, k, v):
    scores = np.where(ALLOWED, np.clip(q @ k.T / np.sqrt(2.0), -1.0, 1.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
