# expect: fail cells
# exp(x) without dividing by the row's sum: the derivative of log is forgotten.
import jax.numpy as np

Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    return (Os == Cs) * np.exp(x)
