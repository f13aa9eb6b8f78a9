# expect: fail transposed
# argsort compared along the wrong axis: the inverse permutation, P transposed.
import jax.numpy as np

Os = np.arange(10)[:, None]


def jac(x):
    return 1.0 * (np.argsort(x) == Os)
