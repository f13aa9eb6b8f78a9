# expect: fail cells
# "Identical keys give flat scores, so no gradient reaches the queries or the keys": the Q and K
# blocks 0 when every row of k is the same. The Q block is 0 there, the K block is not: moving one
# key moves its own score (red team RT37's F6). WITNESS: every row of k (0.8, -0.5).
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.3, -0.8], [0.7, 0.2], [-0.5, 0.9]]),
    onp.array([[0.8, -0.5]] * 3),
    onp.array([[0.9, -0.6], [-0.3, 0.5], [0.1, 0.7]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    if bool(np.all(k == k[0])):
        g = 0.0 * g
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
