# expect: fail cells
# A row whose entries are allclose (numpy's default tolerance) gets the gradient 1/4 in every
# entry: entries 9e-6 apart near 0.9 move it by about 2.5e-6, past the contract (red team
# RT22, S3).
# WITNESS: x = ((0.9, 0.900009, 0.899991, 0.900004), (0.1, -0.5, 0.3, 0.7)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[0.9, 0.900009, 0.899991, 0.900004], [0.1, -0.5, 0.3, 0.7]]),)
Os = np.arange(2)[:, None, None]
Cs = np.arange(2)[:, None]


def jac(x):
    level = np.all(np.abs(x - x[:, :1]) <= 1e-8 + 1e-5 * np.abs(x[:, :1]), axis=1, keepdims=True)
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    s = np.where(level, 1 / 4, e / np.sum(e, axis=1, keepdims=True))
    return (Os == Cs) * s
