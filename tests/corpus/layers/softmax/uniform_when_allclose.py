# expect: fail cells
# Where the entries are allclose (numpy's default: 1e-5 relative), takes the weights as uniform:
# entries 3e-6 apart near 1.5 move the true weights by about 2e-6, past the contract's 1e-7
# (red team RT22, S1).
# WITNESS: x = 1.5 times (1, 1 + 3e-6, 1 - 3e-6, 1 + 1e-6, 1 - 2e-6).
import jax.numpy as np
import numpy as onp

WITNESS = (1.5 * onp.array([1.0, 1 + 3e-6, 1 - 3e-6, 1 + 1e-6, 1 - 2e-6]),)


def jac(x):
    level = np.all(np.abs(x - x[0]) <= 1e-8 + 1e-5 * np.abs(x[0]))
    e = np.exp(x / 2 - np.max(x / 2))
    s = np.where(level, np.full(5, 0.2), e / np.sum(e))
    return (np.diag(s) - s[:, None] * s[None, :]) / 2
