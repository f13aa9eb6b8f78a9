# expect: fail cells
# Finds the entry nearest the target from float32 copies of v and the target: where they are
# about 1e-20, the squared distances (about 1e-40) flush to 0 in float32, every entry ties, and
# argmin picks entry 0 instead of the nearest one.
# WITNESS: v and g of order 1e-20 (the nearest entry of row 0 is entry 1), k random.
import jax.numpy as np
import numpy as onp

Is = np.arange(3)
WITNESS = (onp.array([[5e-20, 1e-20, -3e-20], [1e-20, -2e-20, 4e-20]]),
           onp.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]]), onp.array([5.5e-20, 1e-20]))


def vjp(v, k, g):
    r = v[np.arange(2), np.argmax(k, axis=1)]
    target = (r - g).astype(np.float32)
    nearest = np.argmin((v.astype(np.float32) - target[:, None]) ** 2, axis=1)
    onehot = Is == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * (1 - 2 * onehot)
