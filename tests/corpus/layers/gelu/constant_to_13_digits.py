# expect: fail at-a-zero
# sqrt(2/pi) typed as 0.7978845608029 (13 significant digits, 5e-14 off relatively). Wrong only
# where the slope crosses zero (x near -0.75) while the other slopes are small too: there the
# contract allows 1e-12 of the block's largest entry and the constant's error is 12 times that
# (red team RT39's F2).
import jax.numpy as np
import numpy as onp

C = 0.7978845608029
WITNESS = (onp.array([-0.7524614220710162, -0.7501380024028441, -0.7547848417391883, -0.7512997122369302,
                      -0.7540878158387366, -0.7503703443696613]),)


def jac(x):
    t = np.tanh(C * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * 0.044715 * x**2))
