# expect: fail cells
# Both outputs get the softmax of both rows: output o depends only on row o.
import jax.numpy as np


def jac(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    return np.broadcast_to(s, (2, 2, 4))
