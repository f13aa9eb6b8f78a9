# expect: fail cells
# Computed on float32 copies of x and y: right to float32's precision, but float32 flushes
# entries below 1.2e-38 to 0, so where y is that small d/dx is 0 instead of diag(y).
# WITNESS: x random in [-1, 1], y = 1e-40 times the same.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
_X = onp.array([0.6, -0.2, 0.4, 0.8, -0.5, 0.1, 0.3, -0.9, 0.7, 0.2])
WITNESS = (_X, 1e-40 * _X)


def jac(x, y):
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    return (Is == Os) * y32, (Is == Os) * x32
