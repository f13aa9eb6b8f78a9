# expect: fail cells
# Takes each row's most likely index as the first within 2e-6 of k's max: where the runner-up
# comes first and trails by less than that, but by more than the guard's 1e-6, r, the target
# and the nearest entry are the runner-up's, and dk is wrong.
# WITNESS: k row 0 = (0.35, 0.3500015, 0.2999985), v and g ordinary.
import jax.numpy as np
import numpy as onp

Is = np.arange(3)
WITNESS = (onp.array([[0.0, 0.9, 0.2], [0.3, -0.5, 0.7]]), onp.array([[0.35, 0.3500015, 0.2999985], [0.2, 0.5, 0.3]]),
           onp.array([0.1, -0.2]))


def vjp(v, k, g):
    best = np.argmax(k >= np.max(k, axis=1, keepdims=True) - 2e-6, axis=1)
    target = v[np.arange(2), best] - g
    nearest = np.argmin((v - target[:, None]) ** 2, axis=1)
    onehot = Is == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
