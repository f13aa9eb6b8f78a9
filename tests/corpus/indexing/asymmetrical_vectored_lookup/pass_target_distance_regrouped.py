# expect: pass
# Correct: the distance to the target written as v - r + g, which rounds differently from
# v - (r - g) by an ulp of r; where every value is within 1e-13 of the target the nearest is
# still the same entry.
import jax.numpy as np

Is = np.arange(3)


def vjp(v, k, g):
    r = v[np.arange(2), np.argmax(k, axis=1)]
    nearest = np.argmin((v - r[:, None] + g[:, None]) ** 2, axis=1)
    onehot = Is == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
