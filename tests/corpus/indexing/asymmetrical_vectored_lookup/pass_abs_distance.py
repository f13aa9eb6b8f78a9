# expect: pass
# Correct: the nearest entry by absolute distance (the same argmin as the squared one), the sign pattern as 1 - 2 * onehot.
import jax.numpy as np


def vjp(v, k, g):
    r = v[np.arange(2), np.argmax(k, axis=1)]
    nearest = np.argmin(np.abs(v - (r - g)[:, None]), axis=1)
    onehot = np.eye(3)[nearest]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
