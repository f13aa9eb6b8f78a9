# expect: fail cells
# Skips the centring when the mean is below 1e-8 of the largest entry ("centred already"): off by
# about that share, beyond the contract only where an entry of the Jacobian crosses zero
# (red team RT38).
# WITNESS: near a zero of d f[3] / d x[4], moved to a mean of 5e-9.
import jax.numpy as np
import numpy as onp

_X = onp.array([0.24698291, 0.09092805, -0.59879631, -0.29655557, 0.55744095])
WITNESS = (_X - _X.mean() + 5e-9,)


def jac(x):
    mean = np.mean(x)
    centred = np.where(np.abs(mean) <= 1e-8 * np.max(np.abs(x)), x, x - mean)
    sigma = np.sqrt(np.mean(centred**2) + 1e-5)
    y = centred / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
