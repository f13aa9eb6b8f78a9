# expect: fail
# mistake: the winning cell is (argmax x, argmax y): the most likely row and column
import jax.numpy as np

WITNESS = {
    "arr": [[[5.0, 5.0], [0.5, 0.5], [0.5, 0.5]], [[0.5, 0.5], [0.5, 0.5], [0.5, 0.6]],
            [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]],
    "x_index": [0.2, 0.5, 0.3],
    "y_index": [0.3, 0.3, 0.4],
}
Is = np.arange(3)


def jac(arr, x_index, y_index):
    i, j = np.argmax(x_index), np.argmax(y_index)
    c = np.arange(2)
    d_arr = ((Is[:, None, None] == i) & (Is[None, :, None] == j) & (c[None, None, :] == c[:, None, None, None])) * (
        x_index[i] * y_index[j])
    d_x = (Is == i)[None, :] * (y_index[j] * arr[i, j, :])[:, None]
    d_y = (Is == j)[None, :] * (x_index[i] * arr[i, j, :])[:, None]
    return d_arr, d_x, d_y
