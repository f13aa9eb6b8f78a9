# expect: error structure
# Returns only the Jacobian with respect to X.
import jax.numpy as np

A, B, C, D = np.ix_(*[np.arange(4)] * 4)


def jac(x, y):
    return ((A == C) & (B == D)) * y[B]
