# expect: fail cells
# Treats the residue as flat too, since it contains the rounding: x - round(x) has slope 1 wherever round is flat.
import jax.numpy as np


def jac(arr, index):
    onehot = 1.0 * (np.arange(5) == np.round(index))
    return (onehot, np.zeros(())), (np.zeros(5), np.zeros(()))
