# expect: fail cells
# np.where with its branches swapped: keeps x_i and replaces the others by 1.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return np.prod(np.where(Is == Os, x, 1), axis=1)[None, :]
