# expect: pass
# Correct: the weights from rows of the identity, and the slope a[lo] - a[hi], which is 0 by itself at an integer.
import jax.numpy as np


def jac(arr, index):
    lo, hi = np.floor(index).astype(np.int32), np.ceil(index).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    eye = np.eye(5)
    return t * eye[lo] + (1 - t) * eye[hi], arr[lo] - arr[hi]
