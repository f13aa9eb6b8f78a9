# expect: fail cells
# Adds every row of g into every row that is read at all, losing which batch position read which row.
import jax.numpy as np


def vjp(embeddings, idx, g):
    read = np.any(idx.reshape(-1)[:, None] == np.arange(27), axis=0)
    return read[:, None] * np.sum(g, axis=(0, 1))
