# expect: fail cells
# Each slope taken as its term arr[i, o] * p[i] divided by the other factor, the formula only
# where that factor is below 1e-10. XLA flushes a subnormal term to 0: with arr a whole argument
# just above float64's smallest normal and weights below 1, every term is 0, and so is the slope
# in p (red team RT36). WITNESS: arr of 1e-307, every entry; p a probability vector.
import jax.numpy as np
import numpy as onp

Os = np.arange(5)[:, None, None]
Js = np.arange(5)
WITNESS = (onp.full((5, 5), 1e-307), onp.array([0.1, 0.2, 0.3, 0.15, 0.25]))


def _over(f, d, fallback):
    small = np.abs(d) < 1e-10
    return np.where(small, fallback, f / np.where(small, 1, d))


def jac(arr, indices):
    terms = arr * indices[:, None]
    d_arr = _over(terms, arr, np.broadcast_to(indices[:, None], arr.shape))
    d_p = _over(terms, indices[:, None], arr)
    return d_arr[None, :, :] * (Os == Js), d_p.T
