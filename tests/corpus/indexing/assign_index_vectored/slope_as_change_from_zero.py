# expect: fail cancellation
# The slope in the mask taken as (f - arr) / m, "f's change from m = 0 per unit of m", with
# element - arr only below m = 2e-8. Just above, f - arr cancels where element is close to arr:
# f's rounding over m is then far beyond the small slope (red team RT36).
# WITNESS: m about 3e-8, arr's rows and element within 1e-6 of one another.
import jax.numpy as np
import numpy as onp

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)
_BASE = onp.array([0.9861, 0.9913, 0.9487])
WITNESS = (_BASE * (1 + 1e-6 * onp.array([[0.3, -0.8, 0.5], [-0.6, 0.9, 0.1], [0.7, -0.2, -0.9]])),
           onp.array([3.27e-8, 2.40e-8, 2.84e-8]), _BASE * (1 + 1e-6 * onp.array([-0.4, 0.6, 0.2])))


def jac(arr, index, element):
    f = arr * (1 - index[:, None]) + element[None, :] * index[:, None]
    small = index < 2e-8
    slope = np.where(small[:, None], element[None, :] - arr, (f - arr) / np.where(small, 1.0, index)[:, None])
    d_arr = ((As == Cs) & (Bs == Ds)) * (1 - index)[:, None, None, None]
    d_index = (As[..., 0] == Ds) * slope[:, :, None]
    d_element = (Bs[..., 0] == Ds) * index[:, None, None]
    return d_arr, d_index, d_element
