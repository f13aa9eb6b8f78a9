# expect: fail cells
# Breaks ties inside each window with a jitter of float64's smallest normal times the position:
# two entries of one window closer than that, such as 3e-308 and 2.5e-308, swap when the
# larger comes first.
# WITNESS: x_0 = 3e-308 and x_1 = 2.5e-308 (window 0), the other entries negative.
import jax.numpy as np
import numpy as onp

Is = np.arange(8)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(2)
WITNESS = (onp.array([3e-308, 2.5e-308, -0.3, 0.2, -0.9, -0.1, 0.4, 0.8]),)


def jac(x):
    winner = 2 * Os + np.argmax(x[windows] + np.finfo(np.float64).tiny * np.arange(2), axis=1)[:, None]
    return 1.0 * (Is == winner)
