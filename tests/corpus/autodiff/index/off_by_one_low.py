# expect: fail shifted
# Off by one: output o taken as input o + 9.
import jax.numpy as np

Is = np.arange(25)
Os = np.arange(15)[:, None]


def jac(x):
    return 1.0 * (Is == Os + 9)
