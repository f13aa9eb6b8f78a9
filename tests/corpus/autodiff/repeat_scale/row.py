# expect: fail transposed
# Builds the indices as a row: shape (1, 10) instead of (10, 1).
import jax.numpy as np

def jac(x):
    return np.arange(10)[None, :] / 10
