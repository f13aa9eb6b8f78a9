# expect: fail cells
# A row whose largest entry is more than 10 ahead of the next gets one-hot weights in
# I - softmax: the next entry's weight e^-12 = 6e-6 is dropped, far past the contract (red
# team RT24, C5).
# WITNESS: x = ((112, 100, -150), (0.1, -0.5, 0.3)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[112.0, 100.0, -150.0], [0.1, -0.5, 0.3]]),)
A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    top = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - top)
    s = e / np.sum(e, axis=1, keepdims=True)
    runner_up = np.sort(x, axis=1)[:, -2:-1]
    s = np.where(top - runner_up > 10, 1.0 * (x == top), s)
    return 1.0 * ((A == C) & (B == D)) - (A == C) * s
