# expect: fail cells
# A hard max once a row's top entry leads the next by more than 27, "where e^-27 is below any
# tolerance": the next entry's weight there, 1.7e-12, is still 1.7 times the contract (red team
# RT25).
# WITNESS: x = ((26.4, -0.7, -0.8, -0.9), (0.1, -0.5, 0.3, 0.7)): a lead of 27.1.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[26.4, -0.7, -0.8, -0.9], [0.1, -0.5, 0.3, 0.7]]),)
Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    top = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - top)
    s = e / np.sum(e, axis=1, keepdims=True)
    runner_up = np.sort(x, axis=1)[:, -2:-1]
    return (Os == Cs) * np.where(top - runner_up > 27, 1.0 * (x == top), s)
