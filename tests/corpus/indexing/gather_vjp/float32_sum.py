# expect: fail cells
# Sums the rows of g in float32: where g is below float32's normal range (1.2e-38) every row
# flushes to 0.
# WITNESS: embeddings random, idx = (0, 1, ..., 23) as 8 x 3, g = 1e-40 times entries in [-1, 1].
import jax.numpy as np
import numpy as onp

Rs = np.arange(27)
WITNESS = (onp.linspace(-1, 1, 108).reshape(27, 4), (onp.arange(24) % 27).reshape(8, 3).astype(onp.int32),
           1e-40 * onp.linspace(-0.9, 1.0, 96).reshape(8, 3, 4))


def vjp(embeddings, idx, g):
    onehot = 1.0 * (idx[:, :, None] == Rs)
    return np.einsum("abr,abc->rc", onehot.astype(np.float32), g.astype(np.float32))
