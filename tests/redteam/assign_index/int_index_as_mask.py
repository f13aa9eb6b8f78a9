# expect: fail
# mistake: I reused my assign_index_vectored answer, with the integer index as the mask
import jax.numpy as np

WITNESS = {
    "arr": [[0.1, -0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]],
    "index": 1,
    "element": [0.2, 0.5, -0.6],
}
As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    m = index * np.ones(3)
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - m)[:, None, None, None]
    d_el = (np.arange(3)[None, :, None] == Ds) * m[:, None, None]
    return d_arr, d_el
