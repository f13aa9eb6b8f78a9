# expect: fail cells
# Drops eps once the mean square is above 1e4: beside one entry far above the others, that
# entry's own slope is (the others' mean square + eps) / r^3, and leaving eps out is off by eps
# over the others' mean square, 91 times the contract at the witness (red team RT25, #4; the draws
# with one dominant entry reach it).
# WITNESS: x = (600, -0.5, 0.25, 0.75, -1).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([600.0, -0.5, 0.25, 0.75, -1.0]),)


def jac(x):
    ms = np.mean(x**2)
    r = np.sqrt(np.where(ms > 1e4, ms, ms + 1e-5))
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
