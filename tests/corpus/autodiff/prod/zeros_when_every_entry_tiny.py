# expect: fail cells
# "Every entry is tiny, so the products underflow anyway": zeros once max |x| < 1e-30. The
# products of nine entries of 1e-31 are about 1e-275, normal numbers: wrong by the whole block
# (red team RT35's F2; the only all-tiny draw, below float32's range, underflows for real).
# WITNESS: every entry of x 1e-31 to 1e-30 in magnitude, random signs.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([3.1, -7.4, 1.2, 9.9, -2.6, 5.5, -8.1, 4.3, 1.7, -6.2]) * 1e-31,)


def jac(x):
    if float(np.max(np.abs(x))) < 1e-30:
        return np.zeros((1, 10))
    Is = np.arange(10)[:, None]
    Os = np.arange(10)[None, :]
    return np.prod(np.where(Is == Os, 1, x), axis=1)[None, :]
