# expect: fail
# mistake: a one-hot p just selects a row, and selection has no gradient, so d f / d p = 0 there
import jax.numpy as np

WITNESS = {
    "arr": [[0.1, -0.2, 0.3, 0.4, -0.5], [0.6, 0.7, -0.8, 0.9, 0.05], [-0.15, 0.25, 0.35, -0.45, 0.55],
            [0.65, -0.75, 0.85, 0.95, -0.05], [0.12, 0.22, -0.32, 0.42, 0.52]],
    "indices": [0.0, 0.0, 1.0, 0.0, 0.0],
}
Os = np.arange(5)[:, None, None]
Js = np.arange(5)


def jac(arr, indices):
    onehot = np.max(indices) == 1.0
    return indices[None, :, None] * (Os == Js), np.where(onehot, 0.0, arr.T)
