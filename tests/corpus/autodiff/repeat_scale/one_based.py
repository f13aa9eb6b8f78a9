# expect: fail shifted
# Counts outputs from 1: row o holds (o + 1) / 10.
import jax.numpy as np

def jac(x):
    return np.arange(1, 11)[:, None] / 10
