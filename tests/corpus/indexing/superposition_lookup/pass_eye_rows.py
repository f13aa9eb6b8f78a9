# expect: pass
# Correct: the weights as rows of the identity, and the slope as (dw / d index) . arr.
import jax.numpy as np


def jac(arr, index):
    lo, hi = np.floor(index).astype(np.int32), np.ceil(index).astype(np.int32)
    t = np.where(lo == hi, 0.0, index - lo)
    eye = np.eye(5)
    e1, e2 = eye[np.clip(lo, 0, 4)], eye[np.clip(hi, 0, 4)]
    w = t * e1 + (1 - t) * e2
    dw = np.where(lo == hi, 0.0, e1 - e2)
    return w[None, :], (dw @ arr)[None]
