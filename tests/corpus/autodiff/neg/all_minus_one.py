# expect: fail cells
# Every output taken to depend on every input.
import jax.numpy as np

def jac(x):
    return -np.ones((10, 10))
