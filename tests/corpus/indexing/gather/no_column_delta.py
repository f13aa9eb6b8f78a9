# expect: fail cells
# J[a, b, c, r, d] = [idx[a, b] = r] for every column d: output column c copies table column c only.
import jax.numpy as np

Rs = np.arange(27)[:, None]


def jac(embeddings, idx):
    return 1.0 * (idx[:, :, None, None, None] == Rs) * np.ones((1, 1, 4, 1, 4))
