# expect: fail nearly-right
# Takes an input whose variance is 1 "up to rounding" (within 1e-9) as normalised already:
# sigma = 1, so eps is forgotten there (red team RT38).
# WITNESS: x = sqrt(5/4) (1, -1, 1, -1, 0), variance exactly 1 (inside the declared 3 times the domain).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.sqrt(1.25) * onp.array([1.0, -1.0, 1.0, -1.0, 0.0]),)


def jac(x):
    centred = x - np.mean(x)
    variance = np.mean(centred**2)
    sigma = np.where(np.abs(variance - 1) <= 1e-9, 1.0, np.sqrt(variance + 1e-5))
    y = centred / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
