# expect: fail cells
# d/dx holds x and d/dy holds y: the factors swapped.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x, y):
    return (Is == Os) * x, (Is == Os) * y
