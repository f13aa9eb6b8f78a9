# expect: fail sign
# d f / d index as arr - element: raising m moves each row from arr towards element, so it is element - arr.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    d_index = (As[..., 0] == Ds) * (arr[:, :, None] - element[None, :, None])
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
