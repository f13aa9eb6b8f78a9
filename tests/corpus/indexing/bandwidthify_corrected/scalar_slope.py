# expect: fail gradient
# Returns the slope of the weighted mean position, d (f . [0, 1, 2, 3, 4]) / d index, a scalar, instead of one derivative per weight.
import jax.numpy as np


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    inside = (lo >= 0) & (hi <= bandwidth - 1)
    return np.where((lo == hi) | ~inside, 0.0, 1.0)
