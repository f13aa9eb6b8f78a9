# expect: pass
# Correct: the counts made by a scatter that adds, one 1 per (bag, id) pair, repeated ids adding up.
import jax.numpy as np

BAGS = np.array([0, 0, 1, 1, 1, 2])


def jac(table, ids):
    counts = np.zeros((3, 5)).at[BAGS, ids].add(1.0)
    return counts[:, None, :, None] * np.eye(2)[None, :, None, :]
