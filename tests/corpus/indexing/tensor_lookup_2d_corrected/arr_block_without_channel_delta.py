# expect: fail cells
# d f[c] / d arr[i, j, d] = x_i y_j for every channel pair (c, d): channel c only reads arr[:, :, c].
import jax.numpy as np


def jac(arr, x_index, y_index):
    d_arr = np.broadcast_to(np.outer(x_index, y_index)[None, :, :, None], (2, 3, 3, 2))
    d_x = np.einsum("j,ijc->ci", y_index, arr)
    d_y = np.einsum("i,ijc->cj", x_index, arr)
    return d_arr, d_x, d_y
