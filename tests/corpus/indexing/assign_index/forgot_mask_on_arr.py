# expect: fail cells
# d f / d arr as the full identity, forgetting that row `index` no longer depends on arr.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = (As == Cs) & (Bs == Ds)
    d_element = (As[..., 0] == index) & (Bs[..., 0] == Ds)
    return 1.0 * d_arr, 1.0 * d_element
