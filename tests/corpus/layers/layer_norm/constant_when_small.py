# expect: fail cells
# Where every entry is below 1.3e-6, takes y as 0, so J as (I - 1/N) / sqrt(eps): the term it
# drops, y y^T / (N sigma), is past the contract (1e-7 of each entry) only from about 9e-7, a
# band of a sixth of a decade under the threshold, where the two largest entries are close
# (red team RT19's rms_norm shortcut, RN5, for layer norm).
# WITNESS: x = 1.25e-6 times (1, -0.9, 0.8, -0.7, 0.95).
import jax.numpy as np
import numpy as onp

WITNESS = (1.25e-6 * onp.array([1.0, -0.9, 0.8, -0.7, 0.95]),)


def jac(x):
    centred = x - np.mean(x)
    sigma = np.sqrt(np.mean(centred**2) + 1e-5)
    y = centred / sigma
    full = (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
    return np.where(np.max(np.abs(x)) < 1.3e-6, (np.eye(5) - 1 / 5) / np.sqrt(1e-5), full)
