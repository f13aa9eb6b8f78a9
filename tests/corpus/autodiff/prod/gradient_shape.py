# expect: fail gradient
# Right values, but shape (10,): the gradient, not the (1, 10) Jacobian.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return np.prod(np.where(Is == Os, 1, x), axis=1)
