# expect: fail
# mistake: the derivative of a linear function is f(x) / x, so I divided the output by the input
import jax.numpy as np

WITNESS = {"x": [0.0]}


def jac(x):
    return (2 * x / x)[:, None]
