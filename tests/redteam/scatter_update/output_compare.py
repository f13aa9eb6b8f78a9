# expect: fail
# mistake: the overwritten entry is where f's output differs from the vector
import jax.numpy as np

WITNESS = {"vector": [0.1, 0.2, 0.3, 0.4], "index": 2, "target": 0.3}


def jac(vector, index, target):
    mask = np.zeros(4).at[index].set(1.0)
    out = vector * (1 - mask) + mask * target
    changed = out != vector
    return np.diag(1.0 * ~changed), 1.0 * changed
