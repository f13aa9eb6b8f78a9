# expect: fail
# mistake: 27 symbols means ids 0..25 plus padding, so I clipped the ids to 25
import jax.numpy as np

WITNESS = {
    "embeddings": [[0.01 * (4 * r + c) - 0.5 for c in range(4)] for r in range(27)],
    "idx": [[26, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14], [15, 16, 17], [18, 19, 20], [21, 22, 26]],
}
Rs = np.arange(27)[:, None]
Cs = np.arange(4)[:, None, None]
Ds = np.arange(4)


def jac(embeddings, idx):
    ids = np.clip(idx, 0, 25)
    return 1.0 * ((ids[:, :, None, None, None] == Rs) & (Cs == Ds))
