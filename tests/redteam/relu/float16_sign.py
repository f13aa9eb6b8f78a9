# expect: fail
# mistake: the slope is (sign(x) + 1) / 2, computed on float16 activations (tiny x underflows to 0)
import jax.numpy as np

WITNESS = {"x": [1e-8, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def jac(x):
    return np.diag((np.sign(x.astype(np.float16)) + 1) / 2).astype(np.float32)
