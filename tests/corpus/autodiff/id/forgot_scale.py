# expect: fail factor
# Forgets the factor 2: the derivative of 2x taken as 1.
import jax.numpy as np

def jac(x):
    return np.ones((1, 1))
