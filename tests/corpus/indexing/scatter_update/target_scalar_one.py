# expect: fail gradient
# d f / d target as the scalar 1 ("the new entry is target"): f has four outputs, so it is the (4,) one-hot e_index.
import jax.numpy as np

Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(vector, index, target):
    return 1.0 * ((Is == Os) & (Os != index)), np.ones(())
