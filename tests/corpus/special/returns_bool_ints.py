# expect: pass
# puzzle: relu
# A correct answer as a bool array: True on the diagonal where x > 0.
import jax.numpy as np

Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x):
    return (Is == Os) & (x > 0)
