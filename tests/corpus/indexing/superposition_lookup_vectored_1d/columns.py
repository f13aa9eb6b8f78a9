# expect: fail transposed
# Columns of shape (5, 1): the output's axis comes first, so each block is a (1, 5) row.
import jax.numpy as np


def jac(arr, indices):
    return indices[:, None], arr[:, None]
