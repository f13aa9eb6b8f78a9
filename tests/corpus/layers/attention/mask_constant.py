# expect: fail cells
# Masks with a large negative constant, -39, instead of -inf: where every allowed score is near
# -12.7 (the corner of the 3 times region q and k are drawn in), a masked position keeps a weight
# of e^(-26), which is no longer negligible next to the Jacobian's scale.
# WITNESS: q rows 0 and 1 at (2.99, 2.99), k rows 0 and 1 at (-2.99, -2.99).
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[2.99, 2.99], [2.99, 2.99], [0.2, -0.5]]), onp.array([[-2.99, -2.99], [-2.99, -2.99], [0.4, 0.1]]),
           onp.array([[0.5, -0.2], [0.3, 0.8], [-0.6, 0.1]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -39.0)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
