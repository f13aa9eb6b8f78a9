# expect: fail cells
# Breaks ties with a jitter of float64's smallest normal times the index: two entries closer
# than that, such as 3e-308 and 2.5e-308 (both normal), swap when the larger comes first.
# WITNESS: x_3 = 3e-308 and x_7 = 2.5e-308, the other entries ordinary.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
WITNESS = (onp.array([0.35, -0.6, 0.9, 3e-308, -0.25, 0.55, -0.8, 2.5e-308, 0.05, -0.15]),)


def jac(x):
    return 1.0 * (Is == np.argsort(x + np.finfo(np.float64).tiny * Is)[:, None])
