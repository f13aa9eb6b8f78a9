# expect: fail
# mistake: -sin(x) is cos(x + pi/2), and I typed pi/2 as 1.5708
import jax.numpy as np

WITNESS = {"x": [1e-4]}


def jac(x):
    return np.diag(np.cos(x + 1.5708))
