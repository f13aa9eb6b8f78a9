# expect: fail cells
# Masks column `index` instead of row `index`: the mask (3, 1) selects a row of arr.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = (As == Cs) & (Bs == Ds) & (Bs != index)
    d_element = (Bs[..., 0] == index) & (As[..., 0] == Ds)
    return 1.0 * d_arr, 1.0 * d_element
