# expect: fail
# mistake: a mask lives in [0, 1], so I treated it as clipped: no slope in m when m is exactly 0 or 1
import jax.numpy as np

WITNESS = {
    "arr": [[0.1, -0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]],
    "index": [1.0, 0.3, 0.0],
    "element": [0.2, 0.5, -0.6],
}
As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)
Ks = np.arange(3)


def jac(arr, index, element):
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    inside = (index > 0) & (index < 1)
    d_m = (np.arange(3)[:, None, None] == Ks) * (element[None, :, None] - arr[:, :, None]) * inside
    d_el = (np.arange(3)[None, :, None] == Ds) * index[:, None, None]
    return d_arr, d_m, d_el
