# expect: pass
# Correct, by broadcasting and sums instead of einsum.
import jax.numpy as np


def jac(arr, x_index, y_index):
    mask = x_index[:, None] * y_index[None, :]
    d_arr = mask[None, :, :, None] * np.eye(2)[:, None, None, :]
    d_x = np.sum(y_index[None, :, None] * arr, axis=1).T
    d_y = np.sum(x_index[:, None, None] * arr, axis=0).T
    return d_arr, d_x, d_y
