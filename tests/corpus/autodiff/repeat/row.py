# expect: fail transposed
# A row (1, 10) instead of a column (10, 1).
import jax.numpy as np

def jac(x):
    return np.ones((1, 10))
