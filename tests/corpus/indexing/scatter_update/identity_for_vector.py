# expect: fail cells
# d f / d vector as the identity, forgetting that the overwritten entry no longer depends on vector[index].
import jax.numpy as np

Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(vector, index, target):
    return 1.0 * (Is == Os), 1.0 * (Is == index)
