# expect: fail cells
# Batch norm with the batch's statistics treated as constants (as in inference mode): the identity over sigma.
import jax.numpy as np

A = np.arange(4)[:, None, None, None]
D = np.arange(2)[:, None, None]
C = np.arange(4)[:, None]
E = np.arange(2)


def jac(x):
    sigma = np.sqrt(np.var(x, axis=0) + 1e-5)
    return 1.0 * ((A == C) & (D == E)) / sigma[None, :, None, None]
