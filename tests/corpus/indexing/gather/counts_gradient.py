# expect: fail gradient
# Returns the gradient of sum(f), how often each table entry is read (a (27, 4) count), instead of the (8, 3, 4, 27, 4) Jacobian.
import jax.numpy as np


def jac(embeddings, idx):
    counts = np.sum(idx.reshape(-1)[:, None] == np.arange(27), axis=0)
    return np.broadcast_to(1.0 * counts[:, None], (27, 4))
