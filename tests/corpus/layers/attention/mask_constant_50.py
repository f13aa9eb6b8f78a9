# expect: fail cells
# Masks with -50 instead of -inf: where row 0's one allowed score is -12.7 (q_0 and k_0 at
# opposite corners of the 3 times region) and every row's softmax is saturated, so that the Q
# block's largest entry is about 1e-5, row 0's masked weights of e^(-37.3) = 6e-17 exceed the
# contract on entries that are exactly 0.
# WITNESS: q rows (+,+), (+,+), (-,-) and k rows (-,-), (0,0), (+,+) at 2.99, v spread apart.
import jax.numpy as np
import numpy as onp

I = np.arange(3)[:, None, None, None]
A = np.arange(2)[:, None, None]
C = np.arange(3)[:, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))
WITNESS = (onp.array([[2.99, 2.98], [2.97, 2.995], [-2.985, -2.99]]), onp.array([[-2.99, -2.98], [0.01, -0.02], [2.99, 2.97]]),
           onp.array([[-0.6, 0.1], [0.1, 0.7], [0.65, -0.55]]))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -50.0)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    out = p @ v
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)
    dv = p[:, None, :, None] * (A == D)
    return dq, dk, dv
