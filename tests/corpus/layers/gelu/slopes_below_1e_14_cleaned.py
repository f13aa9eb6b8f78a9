# expect: fail at-a-zero
# Slopes below 1e-14 in size set to 0 as "rounding noise". Beside a zero of the slope, with
# every slope of the block near 1e-3, such an entry is several times the contract's 1e-12 of
# the block's largest entry (red team RT39's F4).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([-0.7524614220709976, -0.7501380024028441, -0.7547848417391883, -0.7512997122369302,
                      -0.7540878158387366, -0.7503703443696613]),)


def jac(x):
    c = np.sqrt(2 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x**3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * c * (1 + 3 * 0.044715 * x**2)
    return np.diag(np.where(np.abs(slope) < 1e-14, 0.0, slope))
