# expect: fail cells
# The view answer: output row paired with input row, as if nothing moved.
import jax.numpy as np

A, B, C, D = np.ix_(*[np.arange(4)] * 4)


def jac(x):
    return 1.0 * ((A == C) & (B == D))
