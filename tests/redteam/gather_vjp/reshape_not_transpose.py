# expect: fail
# mistake: I flattened the one-hot to (27, 24) with reshape instead of transposing it
import jax.numpy as np

WITNESS = {
    "embeddings": [[0.01 * (4 * r + c) - 0.5 for c in range(4)] for r in range(27)],
    "idx": [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14], [15, 16, 17], [18, 19, 20], [21, 22, 0]],
    "g": [[[0.1 * (a + 1) - 0.03 * b + 0.01 * c for c in range(4)] for b in range(3)] for a in range(8)],
}


def vjp(embeddings, idx, g):
    onehot = 1.0 * (idx[:, :, None] == np.arange(27))  # (8, 3, 27)
    return onehot.reshape(27, 24) @ g.reshape(24, 4)
