# expect: fail cells
# -sin(x) written as cos(x + pi/2), exact in maths: x + pi/2 rounds to a float near pi/2, off
# by up to 1e-16, so near 0 the answer keeps no correct digit (6e-17 at x = 1e-40). The contract
# is relative to the entry there; the slope at x = 1e-12 is -1e-12. WITNESS: x = 1e-12.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([1e-12]),)


def jac(x):
    return np.cos(x + np.pi / 2).reshape(1, 1)
