# expect: fail sign
# +|g| on the entry nearest the target and -|g| elsewhere: descent must raise that entry's weight, so its gradient is negative.
import jax.numpy as np


def vjp(v, k, g):
    r = np.take_along_axis(v, np.argmax(k, axis=1)[:, None], axis=1)[:, 0]
    nearest = np.argmin((v - (r - g)[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * np.where(hit, 1.0, -1.0)
