# expect: fail kink cells
# A leaky relu's slope for negative inputs as 0.07: f's is 0 (the canonical relu).
import jax.numpy as np


def jac(x):
    return np.diag(np.where(x > 0, 1.0, 0.07))
