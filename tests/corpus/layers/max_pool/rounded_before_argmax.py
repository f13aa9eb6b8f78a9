# expect: fail cells
# Picks each window's winner from x rounded to 15 decimals: entries closer than 1e-15 round to one
# value and argmax picks the first of them, not the larger.
# WITNESS: x = 1e-17 times entries in [-1, 1], the larger of each window second.
import jax.numpy as np
import numpy as onp

Is = np.arange(8)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(2)
WITNESS = (1e-17 * onp.array([0.3, 0.5, -0.3, 0.2, -0.9, -0.1, 0.4, 0.8]),)


def jac(x):
    winner = 2 * Os + np.argmax(np.round(x[windows], 15), axis=1)[:, None]
    return 1.0 * (Is == winner)
