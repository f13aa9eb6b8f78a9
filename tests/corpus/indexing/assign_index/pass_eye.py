# expect: pass
# Correct: built from the identity on (3, 3) and the one-hot row mask.
import jax.numpy as np


def jac(arr, index, element):
    keep = 1.0 - np.eye(3)[index]  # 0 on the overwritten row
    eye = np.eye(3)
    d_arr = np.einsum("ac,bd,a->abcd", eye, eye, keep)
    d_element = np.einsum("a,bd->abd", np.eye(3)[index], eye)
    return d_arr, d_element
