# expect: fail cells
# prod(x) / x_i, with the zero entries handled apart (the product of the others where x_i = 0):
# right wherever prod(x) is representable, but two entries of 1e-200 make prod(x) underflow to 0,
# while d/dx_i (the product of the others) is about 1e-200.
# WITNESS: x_0 = x_1 = 1e-200, the rest random.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
Os = np.arange(10)[:, None]
WITNESS = (onp.array([1e-200, -1e-200, 0.7, -0.4, 0.9, 0.5, -0.6, 0.8, 0.3, -0.2]),)


def jac(x):
    others = np.prod(np.where(Is == Os, 1, x), axis=1)  # only used where x_i == 0
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, others, np.prod(x) / safe)[None, :]
