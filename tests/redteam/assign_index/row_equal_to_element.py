# expect: fail
# mistake: the overwritten row is the one of f's output equal to element (compared with f, not the index)
import jax.numpy as np

WITNESS = {
    "arr": [[0.1, -0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]],
    "index": 1,
    "element": [0.7, 0.8, -0.9],
}
As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    row = np.eye(3)[index][:, None]
    out = arr * (1 - row) + np.tile(element, (3, 1)) * row
    written = np.all(out == element[None, :], axis=1)  # (3,): the rows that now hold element
    d_arr = 1.0 * ((As == Cs) & (Bs == Ds) & ~written[:, None, None, None])
    d_el = 1.0 * (written[:, None, None] & (np.arange(3)[None, :, None] == Ds))
    return d_arr, d_el
