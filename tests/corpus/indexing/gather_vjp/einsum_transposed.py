# expect: fail shape
# The einsum's output written "cr": shape (4, 27), where d_embeddings is shaped like the table, (27, 4).
import jax.numpy as np


def vjp(embeddings, idx, g):
    onehot = 1.0 * (idx[:, :, None] == np.arange(27))
    return np.einsum("abr,abc->cr", onehot, g)
