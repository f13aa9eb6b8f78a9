# expect: fail
# mistake: I argsort a float16 copy (it is only used for the order); close entries tie and keep index order
import jax.numpy as np

WITNESS = {"x": [0.9001, 0.9000, -0.5, 0.3, 0.1, -0.7, 0.6, -0.2, 0.45, -0.95]}


def jac(x):
    order = np.argsort(x.astype(np.float16))
    return 1.0 * (order[:, None] == np.arange(10)[None, :])
