# expect: fail shifted
# A window centered on o (inputs o - 1 .. o + 1), as for mode='same'.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(8)[:, None]


def jac(x):
    return ((Is >= Os - 1) & (Is <= Os + 1)) / 3
