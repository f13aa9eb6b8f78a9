# expect: fail cells
# Active only above float64's smallest normal number (2.2e-308) instead of above 0: wrong for an
# entry that is exactly that small, which float64 still tells apart from 0.
# WITNESS: x_0 = 2.2250738585072014e-308, the rest random.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
WITNESS = (onp.array([2.2250738585072014e-308, 0.4, -0.3, 0.6, 0.2, -0.8, 0.7, 0.1, -0.5, 0.9]),)


def jac(x):
    return 1.0 * (Is == Os) * (x > onp.finfo(onp.float64).tiny)
