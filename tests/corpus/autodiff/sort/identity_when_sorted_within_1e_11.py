# expect: fail cells
# Takes an input sorted "up to rounding" (no step down by more than 1e-11 of the largest entry)
# as sorted: the identity, wrong where two neighbours are out of order by less (red team RT38).
# WITNESS: sorted but for x[4] 1e-12 above x[5] (relatively).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([-0.9, -0.7, -0.4, 0.1, 0.3 * (1 + 1e-12), 0.3, 0.55, 0.6, 0.8, 0.95]),)
Is = np.arange(10)


def jac(x):
    rising = np.all(np.diff(x) >= -1e-11 * np.max(np.abs(x)))
    return np.where(rising, np.eye(10), 1.0 * (Is == np.argsort(x)[:, None]))
