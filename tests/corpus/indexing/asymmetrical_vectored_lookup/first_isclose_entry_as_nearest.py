# expect: fail cells
# Takes as nearest the first entry "equal" to the target (math.isclose, relative 1e-9) and runs
# the argmin only when none is: wrong where two entries are that close and the later one is
# nearer (red team RT37).
# WITNESS: every value within 1e-11 of its row's target; row 0's entries 0 and 1 both within
# 1e-11 of the target 0.5, entry 1 nearer.
import math

import jax.numpy as np
import numpy as onp

Is = np.arange(3)
WITNESS = (onp.array([[0.5 + 6e-12, 0.5 + 1e-12, 0.5 + 9e-12], [0.7 + 2e-12, 0.7 - 8e-12, 0.7 + 5e-12]]),
           onp.array([[0.2, 0.3, 0.5], [0.2, 0.5, 0.3]]), onp.array([9e-12, -8e-12]))


def vjp(v, k, g):
    r = v[np.arange(2), np.argmax(k, axis=1)]
    target = r - g
    nearest = []
    for b in range(2):
        hit = [i for i in range(3) if math.isclose(float(v[b, i]), float(target[b]))]
        nearest.append(hit[0] if hit else int(np.argmin((v[b] - target[b]) ** 2)))
    onehot = Is == np.array(nearest)[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
