# expect: pass
# mistake: none: np.rint rounds half to even like np.round; the slope in x is a 0-d zero
import jax.numpy as np


def jac(arr, index):
    return np.where(np.arange(5) == np.rint(index), 1.0, 0.0), 0.0 * index
