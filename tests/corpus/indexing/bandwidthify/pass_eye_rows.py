# expect: pass
# Correct: rows of the identity at the clipped positions; their difference is 0 by itself when both clip to one end.
import jax.numpy as np


def jac(index, bandwidth):
    lo, hi = np.floor(index).astype(np.int32), np.ceil(index).astype(np.int32)
    eye = np.eye(bandwidth)
    d = eye[np.clip(lo, 0, bandwidth - 1)] - eye[np.clip(hi, 0, bandwidth - 1)]
    return np.where(lo == hi, 0.0, d)
