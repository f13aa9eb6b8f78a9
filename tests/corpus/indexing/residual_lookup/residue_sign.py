# expect: fail sign
# Takes the residue as round(x) - x, what is added to x to reach the entry: f returns x - round(x).
import jax.numpy as np


def jac(arr, index):
    onehot = 1.0 * (np.arange(5) == np.round(index))
    return (onehot, np.zeros(())), (np.zeros(5), -np.ones(()))
