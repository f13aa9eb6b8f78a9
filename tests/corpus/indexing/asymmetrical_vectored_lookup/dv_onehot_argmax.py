# expect: fail cells
# dv from the forward pass's true derivative, g on the argmax of k, instead of the rule's soft-lookup gradient g_b K[b, i].
import jax.numpy as np


def vjp(v, k, g):
    best = np.argmax(k, axis=1)
    r = np.take_along_axis(v, best[:, None], axis=1)[:, 0]
    nearest = np.argmin((v - (r - g)[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    dv = g[:, None] * (np.arange(3) == best[:, None])
    dk = np.abs(g)[:, None] * np.where(hit, -1.0, 1.0)
    return dv, dk
