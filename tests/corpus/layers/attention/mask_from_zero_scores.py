# expect: fail zero-division cells
# Builds the causal mask from the scores' values, as `masked_fill(scores == 0, -inf)` after a
# `tril` does: right while no allowed score is exactly 0, NaN where a row of q is all zeros (every
# score of that row masked), wrong where a row of k is (one column of allowed scores masked).
# WITNESS: q's middle row all zeros.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
WITNESS = (onp.array([[0.3, -0.6], [0.0, 0.0], [0.5, 0.2]]), onp.array([[0.4, 0.9], [-0.7, 0.1], [0.2, -0.8]]),
           onp.array([[0.9, -0.1], [-0.5, 0.6], [0.3, 0.7]]))


def jac(q, k, v):
    scores = np.tril(q @ k.T / np.sqrt(2.0))
    scores = np.where(scores == 0, -np.inf, scores)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
