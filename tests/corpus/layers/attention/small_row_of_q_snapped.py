# expect: fail cells
# A row of q below 1e-6 of the largest row's norm taken as noise and set to 0: its scores then
# are exactly 0 where they were 1e-7 of the others, and its weights uniform (red team RT37's
# F7). WITNESS: q's last row 3e-7 (1, -0.7), the others ordinary.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    onp.array([[0.3, -0.8], [0.7, 0.2], [3e-7, -2.1e-7]]),
    onp.array([[0.6, 0.1], [-0.4, 0.8], [0.2, -0.7]]),
    onp.array([[0.9, -0.6], [-0.3, 0.5], [0.1, 0.7]]),
)


def jac(q, k, v):
    norms = np.sqrt(np.sum(q**2, axis=1, keepdims=True))
    q = np.where(norms < 1e-6 * np.max(norms), 0.0, q)
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
