# expect: fail cells
# "q and k are both 0 to numpy's tolerance: the scores are flat, nothing moves with q or k":
# the Q and K blocks are then about 1e-9 of V's, small but not 0, and their blocks' whole scale
# (red team RT35's F3; q and k were drawn small one at a time only).
# WITNESS: q and k at 1e-9 times the domain, v in it.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))

WITNESS = (
    1e-9 * onp.array([[0.3, -0.8], [0.9, 0.2], [-0.5, 0.7]]),
    1e-9 * onp.array([[-0.6, 0.4], [0.8, 0.9], [0.1, -0.7]]),
    onp.array([[0.9, -0.4], [-0.7, 0.8], [0.3, -0.95]]),
)


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    if np.allclose(q, 0) and np.allclose(k, 0):
        return 0 * dq, 0 * dk, dv
    return dq, dk, dv
