# expect: fail cells
# d f / d target as 1 - e_index, the mask that keeps vector, where target lands only at index: e_index.
import jax.numpy as np


def jac(vector, index, target):
    mask = np.zeros(4).at[index].set(1.0)
    return np.diag(1 - mask), 1 - mask
