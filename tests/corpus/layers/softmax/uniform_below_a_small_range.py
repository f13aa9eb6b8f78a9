# expect: fail cells
# Takes the weights as uniform when the entries' range is below 2.6e-7 (1.3 times 1e-7 T, at
# T = 2), "where the weights differ by less than the contract": two entries 2.5e-7 above the
# other three move the weights' products by 1.5 times the contract (red team RT33's A3, at the
# canonical temperature).
# WITNESS: x = 1.7 for three entries, 1.7 + 2.5e-7 for two.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([1.7 + 2.5e-7, 1.7, 1.7 + 2.5e-7, 1.7, 1.7]),)


def jac(x):
    flat = np.max(x) - np.min(x) < 2.6e-7
    e = np.exp(x / 2 - np.max(x / 2))
    s = np.where(flat, np.full(5, 0.2), e / np.sum(e))
    return (np.diag(s) - s[:, None] * s[None, :]) / 2
