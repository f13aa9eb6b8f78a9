# expect: fail factor
# Forgets the division by N = 10.
import jax.numpy as np

def jac(x):
    return np.ones((1, 10))
