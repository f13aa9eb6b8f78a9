# expect: fail
# mistake: I read the /20 as a running average and divided each prefix by its length
import jax.numpy as np

WITNESS = {"x": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05]}


def jac(x):
    return np.tril(np.ones((10, 10))) / (np.arange(10) + 1)[:, None]
