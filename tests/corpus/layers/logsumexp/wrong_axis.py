# expect: fail cells
# The softmax taken down the columns (axis 0) while f sums each row.
import jax.numpy as np

Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    e = np.exp(x - np.max(x, axis=0, keepdims=True))
    return (Os == Cs) * (e / np.sum(e, axis=0, keepdims=True))
