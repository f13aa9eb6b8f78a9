# expect: pass
# Correct: the arr block as an einsum of the weights with the identity.
import jax.numpy as np


def jac(arr, indices):
    return np.einsum("i,oj->oij", indices, np.eye(5)), np.einsum("io->oi", arr)
