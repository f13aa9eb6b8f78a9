# expect: fail cells
# "Every entry is tiny, so the products underflow anyway", just above where they really do:
# zeros once max |x| < 1e-33. Nine entries of 3e-34 multiply to 2e-302, a normal number: wrong
# by the whole block (red team RT39's F5).
# WITNESS: every entry of x 3e-34 in magnitude, random signs.
import jax.numpy as np
import numpy as onp

WITNESS = (3e-34 * onp.array([1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0]),)


def jac(x):
    if float(np.max(np.abs(x))) < 1e-33:
        return np.zeros((1, 10))
    Is = np.arange(10)[:, None]
    Os = np.arange(10)[None, :]
    return np.prod(np.where(Is == Os, 1, x), axis=1)[None, :]
