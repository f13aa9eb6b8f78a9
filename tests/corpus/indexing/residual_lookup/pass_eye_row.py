# expect: pass
# Correct: the one-hot as a row of the identity, zeros and ones made from the arguments' shapes.
import jax.numpy as np


def jac(arr, index):
    i = np.round(index).astype(np.int32)
    return (np.eye(5)[i], np.zeros_like(index)), (np.zeros_like(arr), np.ones_like(index))
