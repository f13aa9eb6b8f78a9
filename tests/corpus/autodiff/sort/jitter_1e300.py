# expect: fail cells
# Breaks ties with a jitter of 1e-300 times the index: entries of about 1e-300 that differ by
# less than that, such as 1e-300 and 5e-301, swap when the larger comes first.
# WITNESS: x_2 = 1e-300 and x_6 = 5e-301, the other entries ordinary.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
WITNESS = (onp.array([0.35, -0.6, 1e-300, 0.9, -0.25, 0.55, 5e-301, -0.8, 0.05, -0.15]),)


def jac(x):
    return 1.0 * (Is == np.argsort(x + 1e-300 * Is)[:, None])
