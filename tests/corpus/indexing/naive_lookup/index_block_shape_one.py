# expect: fail extra-axis
# d f / d index as a one-entry vector np.zeros(1): f and index are scalars, so the block has shape ().
import jax.numpy as np


def jac(arr, index):
    return 1.0 * (np.arange(5) == np.round(index)), np.zeros(1)
