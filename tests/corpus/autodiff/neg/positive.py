# expect: fail sign
# Forgets the minus sign: the identity.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return 1.0 * (Is == Os)
