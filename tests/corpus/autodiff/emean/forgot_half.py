# expect: fail factor
# Forgets the division by 2 in both blocks.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x, y):
    return 1.0 * (Is == Os), 1.0 * (Is == Os)
