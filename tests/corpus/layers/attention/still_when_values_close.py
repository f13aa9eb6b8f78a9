# expect: fail cells
# Takes the output as independent of q and k where the rows of v are `allclose` (numpy's
# default tolerances): the Q and K blocks are then small, but not 0 (red team RT17).
# WITNESS: v = 3e-9 times entries in [-1, 1], q and k random.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[0.7, -0.4], [0.2, 0.9], [-0.6, 0.3]]), onp.array([[0.5, 0.8], [-0.9, 0.1], [0.4, -0.7]]),
           3e-9 * onp.array([[0.2, -0.7], [0.9, 0.1], [-0.4, 0.5]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    same = np.all(np.abs(v - v[0]) <= 1e-8 + 1e-5 * np.abs(v[0]))
    return np.where(same, 0.0, dq), np.where(same, 0.0, dk), dv
