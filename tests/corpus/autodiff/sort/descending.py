# expect: fail cells
# Sorts descending: the rows of the permutation in reverse order.
import jax.numpy as np

Is = np.arange(10)


def jac(x):
    return 1.0 * (Is == np.argsort(-x)[:, None])
