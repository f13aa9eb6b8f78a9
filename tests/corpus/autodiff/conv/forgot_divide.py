# expect: fail factor
# Forgets the division by 5 in both blocks.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(6)[:, None]
Ks = np.arange(5)


def jac(x, y):
    k = Is - Os
    dx = np.where((k >= 0) & (k <= 4), y[np.clip(4 - k, 0, 4)], 0)
    return dx, x[Os + 4 - Ks]
