# expect: fail cells
# Takes each window as 3 entries wide, not 2, and gives the gradient to every entry of it equal
# to the output: where the entry just past a window equals that window's max (no tie inside a
# window, so f is smooth there), it gets a 1 where 0 belongs (red team RT25).
# WITNESS: x = (0.3, 0.7, 0.7, -0.2, 0.1, 0.5, -0.4, 0.9): x[2] equals window 0's max.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([0.3, 0.7, 0.7, -0.2, 0.1, 0.5, -0.4, 0.9]),)

Is = np.arange(8)
Os = np.arange(4)[:, None]


def jac(x):
    largest = np.max(x[2 * Os + np.arange(2)], axis=1)
    wider = np.minimum(2 * Os + np.arange(3), 7)
    hit = x[wider] == largest[:, None]
    return 1.0 * np.any((wider[:, :, None] == Is) & hit[:, :, None], axis=1)
