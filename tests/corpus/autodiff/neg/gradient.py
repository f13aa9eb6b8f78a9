# expect: fail gradient
# The elementwise derivative, shape (10,), instead of the diagonal matrix.
import jax.numpy as np

def jac(x):
    return -np.ones(10)
