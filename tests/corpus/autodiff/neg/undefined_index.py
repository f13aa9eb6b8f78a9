# expect: error exception
# Copies the hint but never defines the index arrays: NameError.
import jax.numpy as np

def jac(x):
    return -1 * (Is == Os)
