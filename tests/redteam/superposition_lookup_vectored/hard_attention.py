# expect: fail
# mistake: the lookup reads the most likely row, so d f / d A is the one-hot of argmax(p)
import jax.numpy as np

WITNESS = {
    "arr": [[0.1, -0.2, 0.3, 0.4, -0.5], [0.6, 0.7, -0.8, 0.9, 0.05], [-0.15, 0.25, 0.35, -0.45, 0.55],
            [0.65, -0.75, 0.85, 0.95, -0.05], [0.12, 0.22, -0.32, 0.42, 0.52]],
    "indices": [0.1, 0.2, 0.3, 0.25, 0.15],
}
Os = np.arange(5)[:, None, None]
Is = np.arange(5)[None, :, None]
Js = np.arange(5)


def jac(arr, indices):
    hard = 1.0 * (np.arange(5) == np.argmax(indices))
    return hard[None, :, None] * (Os == Js), arr.T
