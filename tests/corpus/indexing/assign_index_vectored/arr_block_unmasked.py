# expect: fail cells
# d f / d arr as the identity, forgetting the factor 1 - m_a: a soft mask keeps only part of each row.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = 1.0 * ((As == Cs) & (Bs == Ds))
    d_index = (As[..., 0] == Ds) * (element[None, :, None] - arr[:, :, None])
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
