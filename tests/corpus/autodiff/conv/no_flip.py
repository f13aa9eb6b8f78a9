# expect: fail flipped cells
# Forgets that convolution flips the kernel: the Jacobian of a cross-correlation.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(6)[:, None]
Ks = np.arange(5)


def jac(x, y):
    k = Is - Os
    dx = np.where((k >= 0) & (k <= 4), y[np.clip(k, 0, 4)], 0) / 5
    return dx, x[Os + Ks] / 5
