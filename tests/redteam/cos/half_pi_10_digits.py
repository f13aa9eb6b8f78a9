# expect: fail
# mistake: sin(x) written as cos(x - 1.570796327), pi / 2 with 10 significant digits: right to 1e-9 relatively away from 0, wrong where the slope crosses zero
import jax.numpy as np

WITNESS = {"x": [0.0]}


def jac(x):
    return -np.cos(x - 1.570796327)[:, None]
