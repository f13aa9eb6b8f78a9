# expect: pass
# Correct: every block as an einsum with the identity.
import jax.numpy as np


def jac(arr, index, element):
    eye = np.eye(3)
    d_arr = np.einsum("ac,bd,a->abcd", eye, eye, 1 - index)
    d_index = np.einsum("ak,ab->abk", eye, element[None, :] - arr)
    d_element = np.einsum("bd,a->abd", eye, index)
    return d_arr, d_index, d_element
