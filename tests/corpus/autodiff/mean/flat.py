# expect: fail broadcast
# The right weights 1/10, but shape (10,) instead of (1, 10).
import jax.numpy as np

def jac(x):
    return np.ones(10) / 10
