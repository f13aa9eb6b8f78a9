# expect: pass
# Correct: the one-hot taken as a row of the identity, and 0 * index for the flat index derivative.
import jax.numpy as np


def jac(arr, index):
    return np.eye(5)[np.round(index).astype(np.int32)], 0.0 * index
