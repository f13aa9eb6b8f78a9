# expect: fail cells
# Rounds half up with `floor(index + 0.5)`, for f's round half to even: the one-hot is wrong at the indices 0.5 and 2.5.
import jax.numpy as np


def jac(arr, index):
    onehot = 1.0 * (np.arange(5) == np.floor(index + 0.5))
    return (onehot, np.zeros(())), (np.zeros(5), np.ones(()))
