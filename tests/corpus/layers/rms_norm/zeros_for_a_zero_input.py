# expect: fail cells
# "The zero vector: nothing to normalise", so a zero Jacobian there. f = x / sqrt(mean(x^2) + eps)
# has slope I / sqrt(eps) at 0 (red team RT37's F13). WITNESS: x = 0.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.zeros(5),)


def jac(x):
    if bool(np.all(x == 0)):
        return np.zeros((5, 5))
    r = np.sqrt(np.mean(x**2) + 1e-5)
    return np.eye(5) / r - x[:, None] * x[None, :] / (5 * r**3)
