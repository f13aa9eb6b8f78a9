# expect: fail cells
# Pairs output row with input column: the Jacobian of the transpose.
import jax.numpy as np

A, B, C, D = np.ix_(*[np.arange(4)] * 4)


def jac(x):
    return 1.0 * ((A == D) & (B == C))
