# expect: fail cells
# Beyond an exponent gap of 700 (x / 2's largest entry that far ahead of the next) the weights
# are about 1e-304, so this answer takes the softmax as one-hot and its Jacobian as 0. Saturated,
# the whole Jacobian is that small, so the 0 is wrong by all of the block's scale, up to where the
# weights stop being normal numbers (red team RT25, #5).
# WITNESS: x = (2410, -1000, -3000, 1000, -5000): a gap of 705 in x / 2.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([2410.0, -1000.0, -3000.0, 1000.0, -5000.0]),)


def jac(x):
    z = x / 2
    top = np.max(z)
    e = np.exp(z - top)
    s = e / np.sum(e)
    gap = top - np.sort(z)[-2]
    s = np.where(gap > 700, 1.0 * (z == top), s)
    return (np.diag(s) - s[:, None] * s[None, :]) / 2
