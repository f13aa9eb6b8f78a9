# expect: pass
# puzzle: neg
# A correct answer as an int32 array.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return -1 * (Is == Os)
