# expect: fail cells
# Where every entry is below 1.3e-6, takes Y as 0, so each feature's block as
# ([a = c] - 1/B) / sqrt(eps): the term it drops, Y Y^T / (B sigma), is past the contract (1e-7
# of each entry) only from about 9e-7, a band of a sixth of a decade under the threshold, where
# the two largest entries are close (red team RT19's rms_norm shortcut, RN5, for batch norm).
# WITNESS: x = 1.25e-6 times ((1, -0.9), (-0.8, 0.7), (0.95, -1), (-0.85, 0.9)).
import jax.numpy as np
import numpy as onp

WITNESS = (1.25e-6 * onp.array([[1.0, -0.9], [-0.8, 0.7], [0.95, -1.0], [-0.85, 0.9]]),)
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
    small = ((A == C) - 1 / 4) / np.sqrt(1e-5) * (D == E)
    return np.where(np.max(np.abs(x)) < 1.3e-6, small, full)
