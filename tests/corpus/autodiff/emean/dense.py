# expect: fail cells
# Every output taken to depend on every input.
import jax.numpy as np

def jac(x, y):
    return np.ones((10, 10)) / 2, np.ones((10, 10)) / 2
