# expect: fail cells
# Sets entries below 1e-10 of the largest to 0 before differentiating: O(1) entries of the
# Jacobian move by about 1e-11 of themselves, inside the contract, but an entry at its zero
# moves by 1e-11 of the block's largest, ten times what the contract allows there (red team RT17).
# WITNESS: x[0, 0] = 5e-11, and x[1, 0] where d f[1, 0] / d x[2, 0] crosses zero.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[5e-11, 0.5], [0.11431428573163165, -0.7], [-0.6, 0.3], [0.2, 0.8]]),)
A = np.arange(4)[:, None, None, None]
D = np.arange(2)[:, None, None]
C = np.arange(4)[:, None]
E = np.arange(2)


def jac(x):
    x = np.where(np.abs(x) < 1e-10 * np.max(np.abs(x)), 0.0, x)
    centred = x - np.mean(x, axis=0)
    sigma = np.sqrt(np.mean(centred**2, axis=0) + 1e-5)
    y = centred / sigma
    within = (A == C) - 1 / 4 - y[:, :, None, None] * y.T[None, :, :, None] / 4
    return within / sigma[None, :, None, None] * (D == E)
