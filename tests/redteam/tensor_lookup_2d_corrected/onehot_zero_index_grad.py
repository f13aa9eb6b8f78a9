# expect: fail
# mistake: one-hot x and y just select a cell, and a selection has no gradient in its index
import jax.numpy as np

WITNESS = {
    "arr": [[[1.0, -2.0], [3.0, 4.0], [-1.5, 2.5]], [[0.5, 1.5], [-3.5, 2.0], [4.5, -0.5]],
            [[2.2, -1.2], [0.7, 3.3], [-4.1, 1.1]]],
    "x_index": [0.0, 1.0, 0.0],
    "y_index": [0.0, 0.0, 1.0],
}


def jac(arr, x_index, y_index):
    d_arr = np.einsum("i,j,cd->cijd", x_index, y_index, np.eye(2))
    d_x = np.einsum("j,ijc->ci", y_index, arr)
    d_y = np.einsum("i,ijc->cj", x_index, arr)
    onehot = (np.max(x_index) == 1.0) & (np.max(y_index) == 1.0)
    return d_arr, np.where(onehot, 0.0, d_x), np.where(onehot, 0.0, d_y)
