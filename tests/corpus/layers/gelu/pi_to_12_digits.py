# expect: fail at-a-zero
# pi typed as 3.14159265359 inside sqrt(2 / pi): 12 significant digits. Wrong where the slope
# crosses zero with the block small (red team RT39's F2c: 9.5 times the contract at the witness).
import jax.numpy as np
import numpy as onp

C = np.sqrt(2 / 3.14159265359)
WITNESS = (onp.array([-0.7524614220710162, -0.7501380024028441, -0.7547848417391883, -0.7512997122369302,
                      -0.7540878158387366, -0.7503703443696613]),)


def jac(x):
    t = np.tanh(C * (x + 0.044715 * x**3))
    return np.diag(0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * 0.044715 * x**2))
