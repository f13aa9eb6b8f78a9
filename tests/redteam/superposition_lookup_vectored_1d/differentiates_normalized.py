# expect: fail
# mistake: weights should sum to 1, so I differentiated a . (p / sum(p)) instead of a . p
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "indices": [0.1, 0.2, 0.3, 0.25, 0.15]}


def jac(arr, indices):
    s = np.sum(indices)
    d_arr = (indices / s)[None, :]
    d_idx = ((arr - np.dot(arr, indices) / s) / s)[None, :]
    return d_arr, d_idx
