# expect: fail cells
# d f[i, j, c] / d element[d] = x_i y_j for both channels d: channel c of a cell only takes element[c].
import jax.numpy as np


def jac(arr, element, x_index, y_index):
    e3, e2 = np.eye(3), np.eye(2)
    mask = np.outer(x_index, y_index)
    d_arr = np.einsum("ik,jl,cd,ij->ijckld", e3, e3, e2, 1 - mask)
    d_element = np.broadcast_to(mask[:, :, None, None], (3, 3, 2, 2))
    gap = element[None, None, :] - arr
    d_x = np.einsum("ik,j,ijc->ijck", e3, y_index, gap)
    d_y = np.einsum("jk,i,ijc->ijck", e3, x_index, gap)
    return d_arr, d_element, d_x, d_y
