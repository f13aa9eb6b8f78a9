# expect: pass
# Correct: both blocks as einsums of the identities on the axes.
import jax.numpy as np


def jac(x, y):
    e3, e2 = np.eye(3), np.eye(2)
    d_x = np.einsum("ad,be,cf,ab->abcdef", e3, e3, e2, y)
    d_y = np.einsum("ad,be,abc->abcde", e3, e3, x)
    return d_x, d_y
