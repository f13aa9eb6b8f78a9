# expect: fail transposed
# d f / d x_index from `einsum("j,ijc->ic", ...)`, shape (3, 2): the output's channel axis comes first, (2, 3).
import jax.numpy as np


def jac(arr, x_index, y_index):
    d_arr = np.einsum("i,j,cd->cijd", x_index, y_index, np.eye(2))
    d_x = np.einsum("j,ijc->ic", y_index, arr)
    d_y = np.einsum("i,ijc->jc", x_index, arr)
    return d_arr, d_x, d_y
