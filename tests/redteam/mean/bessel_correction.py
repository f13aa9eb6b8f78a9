# expect: fail
# mistake: a mean divides by n - 1 (I mixed it up with the sample variance)
import jax.numpy as np

WITNESS = {"x": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05]}


def jac(x):
    return np.ones((1, 10)) / (x.shape[0] - 1)
