# expect: fail cells
# Takes entries that agree to 1e-11 of their size as one tie, and keeps their order: the
# identity, where sort still permutes them (red team RT38).
# WITNESS: 0.5 times 1 + (3, 1, 4, 0, 2, 9, 6, 5, 8, 7) 1e-13.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
WITNESS = (0.5 * (1 + 1e-13 * onp.array([3.0, 1.0, 4.0, 0.0, 2.0, 9.0, 6.0, 5.0, 8.0, 7.0])),)


def jac(x):
    tied = np.max(x) - np.min(x) <= 1e-11 * np.max(np.abs(x))
    return np.where(tied, np.eye(10), 1.0 * (Is == np.argsort(x)[:, None]))
