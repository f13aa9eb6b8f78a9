# expect: fail cells
# Uses one winning cell for both channels (the argmax of the masked array summed over channels): each channel takes its own max.
import jax.numpy as np


def jac(arr, x_index, y_index):
    masked = np.outer(x_index, y_index)[:, :, None] * arr
    best = np.argmax(np.sum(masked, axis=2).reshape(9))
    i, j = np.full(2, best // 3), np.full(2, best % 3)
    Cs, Ds = np.arange(2), np.arange(2)
    hit_i = np.arange(3)[None, :] == i[:, None]
    hit_j = np.arange(3)[None, :] == j[:, None]
    cell = arr[i, j, Cs]
    d_arr = hit_i[:, :, None, None] * hit_j[:, None, :, None] * (Cs[:, None, None, None] == Ds) * (x_index[i] * y_index[j])[:, None, None, None]
    d_x = hit_i * (y_index[j] * cell)[:, None]
    d_y = hit_j * (x_index[i] * cell)[:, None]
    return d_arr, d_x, d_y
