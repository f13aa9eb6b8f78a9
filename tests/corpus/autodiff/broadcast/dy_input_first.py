# expect: fail transposed
# d f / d y built with the axis of y first: (k, a, b) instead of (a, b, k).
import jax.numpy as np

A, B, C, D = np.ix_(*[np.arange(4)] * 4)
Ks = np.arange(4)[:, None, None]
Bs = np.arange(4)[None, None, :]


def jac(x, y):
    return ((A == C) & (B == D)) * y[B], (Ks == Bs) * x[None, :, :]
