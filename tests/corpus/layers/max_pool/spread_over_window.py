# expect: fail cells
# Max-pool's gradient spread evenly over the window, 1/2 each: the Jacobian of an average pool.
import jax.numpy as np

Is = np.arange(8)
Os = np.arange(4)[:, None]


def jac(x):
    return ((Is >= 2 * Os) & (Is < 2 * Os + 2)) / 2
