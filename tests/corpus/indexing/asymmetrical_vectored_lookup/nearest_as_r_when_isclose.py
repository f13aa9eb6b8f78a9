# expect: fail cells
# Skips the argmin when the target r - g is r "up to rounding" (math.isclose, relative 1e-9):
# the nearest entry is then taken to be r's own. Wrong where another entry of the row lies
# between r and the target, however small g is against r (red team RT37).
# WITNESS: row 0 with every value within 1e-12 of a target of 0.5, entry 1 nearer than r.
import math

import jax.numpy as np
import numpy as onp

Is = np.arange(3)
WITNESS = (onp.array([[0.5 + 4e-12, 0.5 + 1e-12, 0.5 - 7e-12], [0.7 + 3e-12, 0.7 - 5e-12, 0.7 + 1.5e-12]]),
           onp.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]]), onp.array([4e-12, -5e-12]))


def vjp(v, k, g):
    best = np.argmax(k, axis=1)
    r = v[np.arange(2), best]
    target = r - g
    nearest = np.argmin((v - target[:, None]) ** 2, axis=1)
    same = np.array([math.isclose(float(target[b]), float(r[b])) for b in range(2)])
    nearest = np.where(same, best, nearest)
    onehot = Is == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
