# expect: fail cells
# Where the entries differ by less than 1e-5 of the largest, takes x x^T as c^2 with c their mean:
# entries 4e-6 apart near 0.7 make the rank-one term off by about 1e-6 of its scale, past the
# contract (red team RT22, R2b).
# WITNESS: x = 0.7 times (1, 1 + 4e-6, 1 - 4e-6, 1 + 2e-6, 1 - 3e-6).
import jax.numpy as np
import numpy as onp

WITNESS = (0.7 * onp.array([1.0, 1 + 4e-6, 1 - 4e-6, 1 + 2e-6, 1 - 3e-6]),)


def jac(x):
    r = np.sqrt(np.mean(x**2) + 1e-5)
    c = np.mean(x)
    close = np.max(x) - np.min(x) < 1e-5 * np.max(np.abs(x))
    outer = np.where(close, c**2 * np.ones((5, 5)), x[:, None] * x[None, :])
    return np.eye(5) / r - outer / (5 * r**3)
