# expect: fail cells
# d f[c] / d arr[i, j, d] nonzero for both channels d at channel c's winner: the max of channel c reads only arr[i*, j*, c].
import jax.numpy as np


def jac(arr, x_index, y_index):
    masked = np.outer(x_index, y_index)[:, :, None] * arr
    best = np.argmax(masked.reshape(9, 2), axis=0)
    i, j = best // 3, best % 3
    Cs = np.arange(2)
    hit_i = np.arange(3)[None, :] == i[:, None]
    hit_j = np.arange(3)[None, :] == j[:, None]
    cell = arr[i, j, Cs]
    d_arr = hit_i[:, :, None, None] * hit_j[:, None, :, None] * (x_index[i] * y_index[j])[:, None, None, None] * np.ones(2)
    d_x = hit_i * (y_index[j] * cell)[:, None]
    d_y = hit_j * (x_index[i] * cell)[:, None]
    return d_arr, d_x, d_y
