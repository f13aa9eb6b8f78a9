# expect: fail broadcast
# The right value 2, but as a 0-d scalar instead of a (1, 1) matrix.
import jax.numpy as np

def jac(x):
    return np.array(2.0)
