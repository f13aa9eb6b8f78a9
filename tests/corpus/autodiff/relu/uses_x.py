# expect: fail cells
# Puts x on the diagonal instead of the indicator x > 0.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return (Is == Os) * np.where(x > 0, x, 0.0)
