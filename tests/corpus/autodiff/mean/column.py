# expect: fail transposed
# A column (10, 1): input axis first instead of output axis first.
import jax.numpy as np

def jac(x):
    return np.ones((10, 1)) / 10
