# expect: fail cells
# d f[a, b] / d index[k] = element[b] - arr[a, b] for every k, forgetting that row a depends on m_a alone.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    d_index = np.broadcast_to((element[None, :] - arr)[:, :, None], (3, 3, 3))
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
