# expect: fail cells
# Right d f / d arr, but d f / d x and d f / d y without the winning cell's value: the product rule on x_i y_j A_ijc keeps A.
import jax.numpy as np


def jac(arr, x_index, y_index):
    masked = np.outer(x_index, y_index)[:, :, None] * arr
    best = np.argmax(masked.reshape(9, 2), axis=0)
    i, j = best // 3, best % 3
    Cs, Ds = np.arange(2), np.arange(2)
    hit_i = np.arange(3)[None, :] == i[:, None]
    hit_j = np.arange(3)[None, :] == j[:, None]
    d_arr = hit_i[:, :, None, None] * hit_j[:, None, :, None] * (Cs[:, None, None, None] == Ds) * (x_index[i] * y_index[j])[:, None, None, None]
    return d_arr, hit_i * y_index[j][:, None], hit_j * x_index[i][:, None]
