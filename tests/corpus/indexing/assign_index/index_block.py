# expect: error structure
# Returns a (zero) Jacobian for the integer index too: only the floating arguments arr and element get one.
import jax.numpy as np

As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(arr, index, element):
    d_arr = (As == Cs) & (Bs == Ds) & (As != index)
    d_element = (As[..., 0] == index) & (Bs[..., 0] == Ds)
    return d_arr, np.zeros((3, 3)), d_element
