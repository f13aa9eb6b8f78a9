# expect: pass
# mistake: none: ceil(clip(x, 0, 1)) is 1 for x > 0 and 0 for x < 0
import jax.numpy as np


def jac(x):
    return np.diag(np.ceil(np.clip(x, 0.0, 1.0)))
