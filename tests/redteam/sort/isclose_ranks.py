# expect: fail
# mistake: rank = how many entries are smaller, ignoring ones np.isclose calls equal (float noise)
import jax.numpy as np

WITNESS = {"x": [0.5, 0.500001, -0.5, 0.3, 0.1, -0.7, 0.6, -0.2, 0.45, -0.95]}


def jac(x):
    below = (x[None, :] < x[:, None]) & ~np.isclose(x[None, :], x[:, None])
    rank = np.sum(below, axis=1)  # where x[i] lands in the sorted output
    return 1.0 * (np.arange(10)[:, None] == rank[None, :])
