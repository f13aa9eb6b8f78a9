# expect: fail cells
# Reuses the output: d f / d m_a = (f - arr) / m_a, element - arr on paper, but it loses digits to cancellation where m_a is small and is NaN where m_a = 0.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    f = arr * (1 - index[:, None]) + element[None, :] * index[:, None]
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    d_index = (As[..., 0] == Ds) * ((f - arr) / index[:, None])[:, :, None]
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
