# expect: pass
# Correct: np.diag of the kept entries, the one-hot as a row of the identity.
import jax.numpy as np


def jac(vector, index, target):
    onehot = np.eye(4)[index]
    return np.diag(1 - onehot), onehot
