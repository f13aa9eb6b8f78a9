# expect: pass
# Correct: the same chain rule written with einsum over named indices (i, a: output; c, d: input).
import jax.numpy as np

ALLOWED = np.tril(np.ones((3, 3), dtype=bool))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = np.einsum("ij,iaj->iaj", p, v.T[None, :, :] - out[:, :, None])  # d f[i, a] / d S[i, j]
    eye3, eye2 = np.eye(3), np.eye(2)
    dq = np.einsum("iaj,jd,ic->iacd", g, k, eye3) / np.sqrt(2.0)
    dk = np.einsum("iac,id->iacd", g, q) / np.sqrt(2.0)
    dv = np.einsum("ic,ad->iacd", p, eye2)
    return dq, dk, dv
