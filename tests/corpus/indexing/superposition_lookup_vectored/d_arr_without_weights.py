# expect: fail cells
# Forgets the weight p_i: d f_o / d A[i, j] = [j = o], as if every row were read in full.
import jax.numpy as np

Os = np.arange(5)[:, None, None]
Js = np.arange(5)


def jac(arr, indices):
    return 1.0 * (Os == Js) * np.ones((1, 5, 1)), arr.T
