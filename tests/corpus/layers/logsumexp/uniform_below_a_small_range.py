# expect: fail cells
# Takes a row's weights as uniform when its range is below 2e-7: one entry 1.9e-7 above the other
# three moves its weight by 1.4 times the contract (red team RT33's A3, in another normaliser).
# WITNESS: x = ((-2.2 + 1.9e-7, -2.2, -2.2, -2.2), (0.1, -0.5, 0.3, 0.7)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[-2.2 + 1.9e-7, -2.2, -2.2, -2.2], [0.1, -0.5, 0.3, 0.7]]),)
Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    flat = (np.max(x, axis=1) - np.min(x, axis=1) < 2e-7)[:, None]
    return (Os == Cs) * np.where(flat, 0.25, s)
