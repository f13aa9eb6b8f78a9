# expect: fail shifted
# A strict inequality: output o taken to use inputs 0 .. o - 1, missing the diagonal.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return (Is < Os) / 20
