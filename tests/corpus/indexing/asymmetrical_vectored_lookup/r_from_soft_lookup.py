# expect: fail cells
# Computes r as the soft lookup sum_i K[b, i] V[b, i] (the backward rule's model), but f's r is the value at the argmax of k.
import jax.numpy as np


def vjp(v, k, g):
    r = np.sum(k * v, axis=1)
    nearest = np.argmin((v - (r - g)[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * np.where(hit, -1.0, 1.0)
