# expect: error exception
# puzzle: cumsum
# Importing the file raises, before jac is ever called.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]
raise RuntimeError("this answer file raises when imported")


def jac(x):
    return (Is <= Os) / 20
