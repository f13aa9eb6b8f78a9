# expect: fail gradient
# Shape (10,), the output's shape, instead of (10, 1).
import jax.numpy as np

def jac(x):
    return np.ones(10)
