# expect: fail cells
# GELU's derivative from the exact (erf) form, Phi(x) + x phi(x): close to, but not, the tanh form's.
import jax
import jax.numpy as np


def jac(x):
    cdf = 0.5 * (1 + jax.scipy.special.erf(x / np.sqrt(2.0)))
    pdf = np.exp(-0.5 * x**2) / np.sqrt(2 * np.pi)
    return np.diag(cdf + x * pdf)
