# expect: fail cells
# Beyond |x| > 4, takes gelu as saturated: slope 1 on the right, 0 on the left. At x = -4.2 the
# true slope is about -1.3e-4 (its x phi(x) term), past the contract (red team RT22, G1); the
# domain's random draws stop at 4.
# WITNESS: x = (-4.2, 4.3, 0.5, -1, 2, 0.1).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([-4.2, 4.3, 0.5, -1.0, 2.0, 0.1]),)


def jac(x):
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x**2)
    return np.diag(np.where(x > 4, 1.0, np.where(x < -4, 0.0, slope)))
