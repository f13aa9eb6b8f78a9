# expect: fail gradient
# d f / d element as the (3, 3) identity, the derivative of the new row alone, instead of a (3, 3, 3) block over every output row.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = (As == Cs) & (Bs == Ds) & (As != index)
    return 1.0 * d_arr, np.eye(3)
