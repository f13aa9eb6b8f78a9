# expect: fail cells
# Reduces the angle first, sin(x) = (-1)^k sin(x - k pi), with k the nearest multiple of pi. The
# float np.pi is 1.2e-16 short of pi, so x - k * np.pi is off by k times that: at x near 100 pi,
# where -sin(x) is 3.4e-13, it is 2e-15 off (red team RT24, A3).
# WITNESS: x = 314.159265358979, 3.4e-13 from 100 pi.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([314.159265358979]),)


def jac(x):
    k = np.round(x / np.pi)
    sign = 1.0 - 2.0 * (k % 2)
    return (-sign * np.sin(x - k * np.pi))[:, None]
