# expect: fail cells
# A 1 for every entry of the window: each output moves with all of them.
import jax.numpy as np

Is = np.arange(8)
Os = np.arange(4)[:, None]


def jac(x):
    return 1.0 * ((Is >= 2 * Os) & (Is < 2 * Os + 2))
