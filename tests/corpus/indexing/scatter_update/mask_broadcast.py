# expect: fail cells
# d f / d vector as the mask 1 - e_index broadcast over every row, instead of on the diagonal only.
import jax.numpy as np


def jac(vector, index, target):
    mask = np.zeros(4).at[index].set(1.0)
    return np.broadcast_to(1 - mask, (4, 4)), mask
