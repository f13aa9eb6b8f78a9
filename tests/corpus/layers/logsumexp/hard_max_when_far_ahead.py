# expect: fail cells
# A row whose largest entry is more than 10 ahead of the next is taken as a hard max: weight 1
# on the largest, 0 elsewhere. The next entry's weight there is e^-12 = 6e-6, far past the
# contract (red team RT24, C4).
# WITNESS: x = ((112, 100, -150, -300), (0.1, -0.5, 0.3, 0.7)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[112.0, 100.0, -150.0, -300.0], [0.1, -0.5, 0.3, 0.7]]),)
Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    top = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - top)
    s = e / np.sum(e, axis=1, keepdims=True)
    runner_up = np.sort(x, axis=1)[:, -2:-1]
    s = np.where(top - runner_up > 10, 1.0 * (x == top), s)
    return (Os == Cs) * s
