# expect: fail cells
# "A mask of zeros writes nothing, so nothing moves with it": the slope in the mask taken as 0
# when every entry of the mask is 0. Moving m_a from 0 still pulls row a towards e (red team
# RT37's F14). WITNESS: m = 0.
import jax.numpy as np
import numpy as onp

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)
WITNESS = (onp.array([[0.3, 0.9, -0.6], [0.2, -0.5, 0.8], [-0.8, 0.1, 0.5]]), onp.zeros(3),
           onp.array([0.7, -0.4, 0.25]))


def jac(arr, index, element):
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    d_index = (As[..., 0] == Ds) * (element[None, :] - arr)[:, :, None]
    if not bool(np.any(index)):
        d_index = 0.0 * d_index
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
