# expect: fail cells
# Reasons that floor and ceil are flat, so the weights do not move with the index: all zeros, forgetting t.
import jax.numpy as np


def jac(index, bandwidth):
    return np.zeros(bandwidth)
