# expect: fail cells
# Each term x_i y_j A_ijc differentiated as the term divided by the factor, the other factors
# only where that factor is below 1e-10. XLA flushes a subnormal term to 0: with A a whole
# argument near float64's smallest normal and the weights below 1, the terms are 0 while the
# slopes y_j A_ijc are not (red team RT36's F11). WITNESS: A of 1e-307, every entry.
import jax.numpy as np
import numpy as onp

Chans = np.arange(2)
WITNESS = (onp.full((3, 3, 2), 1e-307), onp.array([0.2, 0.3, 0.5]), onp.array([0.1, 0.6, 0.3]))


def _over(f, d, fallback):
    small = np.abs(d) < 1e-10
    return np.where(small, fallback, f / np.where(small, 1, d))


def jac(arr, x_index, y_index):
    mask = np.outer(x_index, y_index)
    terms = mask[:, :, None] * arr
    per_a = _over(terms, arr, np.broadcast_to(mask[:, :, None], arr.shape))
    per_x = _over(terms, x_index[:, None, None], y_index[None, :, None] * arr)
    per_y = _over(terms, y_index[None, :, None], x_index[:, None, None] * arr)
    d_arr = np.moveaxis(per_a, 2, 0)[..., None] * (Chans[:, None, None, None] == Chans)
    return d_arr, np.sum(per_x, axis=1).T, np.sum(per_y, axis=0).T
