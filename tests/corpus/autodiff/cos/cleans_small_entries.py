# expect: fail cells
# "Cleans floating-point noise" out of the Jacobian: entries below 1e-10 set to 0 (red team,
# round 12). WITNESS: x = -5e-11, where the slope is 5e-11.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([-5e-11]),)


def jac(x):
    J = -np.sin(x)[:, None]
    return np.where(np.abs(J) < 1e-10, 0.0, J)
