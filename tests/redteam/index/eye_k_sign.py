# expect: fail
# mistake: the slice starts at 10, so the identity is shifted with k=-10
import jax.numpy as np

WITNESS = {"x": [0.01 * i for i in range(25)]}


def jac(x):
    return np.eye(15, 25, k=-10)
