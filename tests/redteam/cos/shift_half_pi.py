# expect: pass
# mistake: none: cos(x + pi/2) is exactly -sin(x)
import jax.numpy as np


def jac(x):
    return np.cos(x + np.pi / 2).reshape(1, 1)
