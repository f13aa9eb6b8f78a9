# expect: pass
# Correct: the identity with its (index, index) entry set to 0, and the one-hot mask, both with `.at[...].set`.
import jax.numpy as np


def jac(vector, index, target):
    return np.eye(4).at[index, index].set(0.0), np.zeros(4).at[index].set(1.0)
