# expect: pass
# Correct, with comparisons of index arrays as in the hints instead of einsum.
import jax.numpy as np

Is = np.arange(3)[:, None, None, None]
Js = np.arange(3)[None, :, None, None]
Ks = np.arange(3)


def jac(arr, element, x_index, y_index):
    mask = np.outer(x_index, y_index)[:, :, None]
    eye = np.eye(18).reshape(3, 3, 2, 3, 3, 2)
    d_arr = eye * (1 - mask)[:, :, :, None, None, None]
    d_element = np.eye(2)[None, None, :, :] * mask[:, :, :, None]
    gap = (element[None, None, :] - arr)[:, :, :, None]
    d_x = (Is == Ks) * y_index[None, :, None, None] * gap
    d_y = (Js == Ks) * x_index[:, None, None, None] * gap
    return d_arr, d_element, d_x, d_y
