# expect: fail cells
# The two outputs in the wrong order: the residue's pair first, the looked-up entry's second.
import jax.numpy as np


def jac(arr, index):
    onehot = 1.0 * (np.arange(5) == np.round(index))
    return (np.zeros(5), np.ones(())), (onehot, np.zeros(()))
