# expect: fail cells
# Treats the soft mask as a hard one (the row of its largest entry is replaced): right for a one-hot mask only.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    m = 1.0 * (np.arange(3) == np.argmax(index))
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - m)[:, None, None, None]
    d_index = (As[..., 0] == Ds) * (element[None, :, None] - arr[:, :, None])
    d_element = (Bs[..., 0] == Ds) * m[:, None, None]
    return d_arr, d_index, d_element
