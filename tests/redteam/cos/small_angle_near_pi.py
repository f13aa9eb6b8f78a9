# expect: fail
# mistake: near +-pi, sin(x) is about pi - |x| (small-angle rule around pi), which also avoids cancellation
import jax.numpy as np

WITNESS = {"x": [3.0]}


def jac(x):
    near = np.abs(np.pi - np.abs(x)) < 0.2
    return -np.where(near, np.sign(x) * (np.pi - np.abs(x)), np.sin(x))[:, None]
