# expect: fail cells
# Drops eps once the variance is above 1e4, "where it no longer matters": beside one entry far
# above the others, the entry of that coordinate on itself nearly cancels, and leaving eps out
# moves it by eps over the others' variance, 110 times the contract at the witness (red team
# RT25, #3; the draws with one dominant entry reach it).
# WITNESS: x = (600, -0.5, 0.25, 0.75, -1).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([600.0, -0.5, 0.25, 0.75, -1.0]),)


def jac(x):
    centred = x - np.mean(x)
    var = np.mean(centred**2)
    sigma = np.sqrt(np.where(var > 1e4, var, var + 1e-5))
    y = centred / sigma
    return (np.eye(5) - 1 / 5 - y[:, None] * y[None, :] / 5) / sigma
