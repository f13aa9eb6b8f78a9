# expect: error exception
# puzzle: cumsum
# A syntax error: the file cannot be imported.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x)
    return (Is <= Os) / 20
