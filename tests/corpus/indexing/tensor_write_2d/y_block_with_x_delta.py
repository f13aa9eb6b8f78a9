# expect: fail cells
# Copies the x_index block for y_index without swapping roles: the delta must tie y_index[k] to the column j, scaled by x_i.
import jax.numpy as np


def jac(arr, element, x_index, y_index):
    e3, e2 = np.eye(3), np.eye(2)
    mask = np.outer(x_index, y_index)
    d_arr = np.einsum("ik,jl,cd,ij->ijckld", e3, e3, e2, 1 - mask)
    d_element = np.einsum("cd,ij->ijcd", e2, mask)
    gap = element[None, None, :] - arr
    d_x = np.einsum("ik,j,ijc->ijck", e3, y_index, gap)
    d_y = np.einsum("ik,j,ijc->ijck", e3, x_index, gap)
    return d_arr, d_element, d_x, d_y
