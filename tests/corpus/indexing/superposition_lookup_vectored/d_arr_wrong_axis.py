# expect: fail cells
# Puts the weight on the wrong axis of arr: d f_o / d A[i, j] = p_j [i = o], as if f mixed the columns.
import jax.numpy as np

Os = np.arange(5)[:, None, None]
Is = np.arange(5)[None, :, None]


def jac(arr, indices):
    return indices[None, None, :] * (Os == Is), arr.T
