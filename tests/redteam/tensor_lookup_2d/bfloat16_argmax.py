# expect: fail
# mistake: the winner is found on a bfloat16 copy of the masked array (only the argmax is needed)
import jax.numpy as np

WITNESS = {
    "arr": [[[3.985, 0.6], [0.5, 0.5], [0.5, 0.5]], [[4.001, 0.5], [0.5, 3.0], [0.5, 0.5]],
            [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]],
    "x_index": [0.45, 0.45, 0.1],
    "y_index": [0.8, 0.1, 0.1],
}
Is = np.arange(3)


def jac(arr, x_index, y_index):
    masked = (np.outer(x_index, y_index)[:, :, None] * arr).reshape(9, 2)
    best = np.argmax(masked.astype(np.bfloat16), axis=0)
    i, j = best // 3, best % 3
    c = np.arange(2)
    d_arr = ((Is[None, :, None, None] == i[:, None, None, None]) & (Is[None, None, :, None] == j[:, None, None, None])
             & (c[None, None, None, :] == c[:, None, None, None])) * (x_index[i] * y_index[j])[:, None, None, None]
    d_x = (Is[None, :] == i[:, None]) * (y_index[j] * arr[i, j, c])[:, None]
    d_y = (Is[None, :] == j[:, None]) * (x_index[i] * arr[i, j, c])[:, None]
    return d_arr, d_x, d_y
