# expect: fail cells
# Wrong threshold: x >= 0.5 instead of x > 0.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return 1.0 * (Is == Os) * (x >= 0.5)
