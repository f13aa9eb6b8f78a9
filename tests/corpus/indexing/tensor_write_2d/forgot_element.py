# expect: error structure
# Returns blocks for arr and the two indices only, forgetting that element (the value written) is a floating argument too.
import jax.numpy as np


def jac(arr, element, x_index, y_index):
    e3, e2 = np.eye(3), np.eye(2)
    mask = np.outer(x_index, y_index)
    d_arr = np.einsum("ik,jl,cd,ij->ijckld", e3, e3, e2, 1 - mask)
    gap = element[None, None, :] - arr
    d_x = np.einsum("ik,j,ijc->ijck", e3, y_index, gap)
    d_y = np.einsum("jk,i,ijc->ijck", e3, x_index, gap)
    return d_arr, d_x, d_y
