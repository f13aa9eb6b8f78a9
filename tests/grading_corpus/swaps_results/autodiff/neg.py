"""Right, but prints, so it runs eagerly, first (catalog order), and its result is written
before cumsum runs."""
import jax.numpy as np


def jac(x):
    print("neg ran")
    return -np.eye(x.shape[0])
