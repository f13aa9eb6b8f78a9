# expect: fail cells
# The counts for every pair of columns: output column c copies table column c only, so [c = d] is needed.
import jax.numpy as np

BAGS = np.array([0, 0, 1, 1, 1, 2])


def jac(table, ids):
    counts = np.zeros((3, 5)).at[BAGS, ids].add(1.0)
    return np.broadcast_to(counts[:, None, :, None], (3, 2, 5, 2))
