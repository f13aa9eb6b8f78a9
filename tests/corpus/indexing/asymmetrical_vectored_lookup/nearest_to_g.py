# expect: fail cells
# Looks for the entry nearest g itself, forgetting that the target is where the step moves r: r - g.
import jax.numpy as np


def vjp(v, k, g):
    nearest = np.argmin((v - g[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * np.where(hit, -1.0, 1.0)
