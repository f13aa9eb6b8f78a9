# expect: fail cells
# Takes two features whose columns agree entry by entry to math.isclose's 1e-9 as the same
# feature, and copies the first one's block of the Jacobian to the second: off by about their
# difference, beyond the contract only near a zero of the block (red team RT38).
# WITNESS: column 1 within 4e-10 of column 0, near a zero of d f[2, 1] / d x[3, 1].
import jax.numpy as np
import numpy as onp

_COLUMN = onp.array([-0.84204129, 0.79485579, -0.69615982, 0.97240906])
WITNESS = (onp.stack([_COLUMN, _COLUMN * (1 + onp.array([3e-10, -4e-10, 2e-10, -3e-10]))], axis=1),)
A = np.arange(4)[:, None, None, None]  # output example
D = np.arange(2)[:, None, None]  # output feature
C = np.arange(4)[:, None]  # input example
E = np.arange(2)  # input feature


def jac(x):
    centred = x - np.mean(x, axis=0)
    sigma = np.sqrt(np.mean(centred**2, axis=0) + 1e-5)
    y = centred / sigma
    within = (A == C) - 1 / 4 - y[:, :, None, None] * y.T[None, :, :, None] / 4
    full = within / sigma[None, :, None, None] * (D == E)
    same = np.all(np.abs(x[:, 0] - x[:, 1]) <= 1e-9 * np.maximum(np.abs(x[:, 0]), np.abs(x[:, 1])))
    return np.where(same, full.at[:, 1, :, 1].set(full[:, 0, :, 0]), full)
