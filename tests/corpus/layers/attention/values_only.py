# expect: error structure
# Returns only the Jacobian with respect to v, the easy linear one: f has three arguments.
import jax.numpy as np

A = np.arange(2)[:, None, None]
D = np.arange(2)
ALLOWED = np.tril(np.ones((3, 3), dtype=bool))


def jac(q, k, v):
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    return p[:, None, :, None] * (A == D)
