# expect: fail
# mistake: a step is a very steep sigmoid, so I used sigmoid(1e4 * x) as the slope
import jax
import jax.numpy as np

WITNESS = {"x": [3e-4, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.diag(jax.nn.sigmoid(1e4 * x))
