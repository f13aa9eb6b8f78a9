# expect: fail cells
# Contracts x's derivative over the wrong axis: d f[c] / d x_i = sum_j y_j A[i, j, c], not sum over i with x.
import jax.numpy as np


def jac(arr, x_index, y_index):
    d_arr = np.einsum("i,j,cd->cijd", x_index, y_index, np.eye(2))
    d_x = np.einsum("i,ijc->cj", x_index, arr)
    d_y = np.einsum("j,ijc->ci", y_index, arr)
    return d_arr, d_x, d_y
