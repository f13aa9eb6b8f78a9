# expect: fail cells
# Averages the rows of g that share an id instead of adding them, as if the gradient were shared out between the reads.
import jax.numpy as np


def vjp(embeddings, idx, g):
    onehot = 1.0 * (idx[:, :, None] == np.arange(27))
    total = np.einsum("abr,abc->rc", onehot, g)
    counts = np.sum(onehot, axis=(0, 1))
    return total / np.maximum(counts, 1)[:, None]
