# expect: fail
# mistake: only cells whose value changed depend on the indices, so I masked the index blocks with out != arr
import jax.numpy as np

WITNESS = {
    "arr": [[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], [[0.7, -0.8], [0.9, 0.05], [-0.15, 0.25]],
            [[0.35, -0.45], [0.55, 0.65], [-0.75, 0.85]]],
    "element": [0.2, -0.3],
    "x_index": [0.0, 1.0, 0.0],
    "y_index": [0.0, 0.0, 1.0],
}
Is = np.arange(3)[:, None, None, None]
Js = np.arange(3)[None, :, None, None]
Ks = np.arange(3)


def jac(arr, element, x_index, y_index):
    mask = np.outer(x_index, y_index)[:, :, None]
    out = (1 - mask) * arr + mask * element[None, None, :]
    changed = (out != arr)[..., None]
    diff = (element[None, None, :] - arr)[..., None]
    eye = np.einsum("ad,be,cf->abcdef", np.eye(3), np.eye(3), np.eye(2))
    d_arr = eye * (1 - mask)[..., None, None, None]
    d_el = np.einsum("ij,cd->ijcd", np.outer(x_index, y_index), np.eye(2))
    d_x = (Is == Ks) * y_index[None, :, None, None] * diff * changed
    d_y = (Js == Ks) * x_index[:, None, None, None] * diff * changed
    return d_arr, d_el, d_x, d_y
