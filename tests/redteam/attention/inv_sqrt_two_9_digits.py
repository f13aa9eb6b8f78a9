# expect: fail
# mistake: 1 / sqrt(2) written out as 0.707106781 (9 significant digits): right to 1e-9 relatively, wrong where an entry crosses zero
import jax.numpy as np

WITNESS = {
    "q": [[-0.3107513785351984, -0.6091172939723486], [0.8048704634108381, 0.016741632210250934], [0.5851791440252094, -0.4716906171270281]],
    "k": [[0.6254741938818233, 0.15367102033595798], [0.6254741938818236, 0.7856604645795794], [0.1413007112770344, 0.028694906743162774]],
    "v": [[0.23741436711019137, -0.09374666443281954], [0.8659444266755216, -0.0696411951754643], [-0.12443216941046575, -0.551303910753925]],
}
I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
R = 0.707106781


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T * R, -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] * R
    dk = g[:, :, :, None] * q[:, None, None, :] * R
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
