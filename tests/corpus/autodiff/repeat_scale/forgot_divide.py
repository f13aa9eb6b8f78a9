# expect: fail factor
# Forgets the division by 10.
import jax.numpy as np

Os = np.arange(10)[:, None]


def jac(x):
    return 1.0 * Os
