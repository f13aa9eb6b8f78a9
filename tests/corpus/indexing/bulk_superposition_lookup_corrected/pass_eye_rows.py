# expect: pass
# Correct: W from rows of the identity, and the slopes on the diagonal with np.diag.
import jax.numpy as np


def jac(arr, indices):
    eye = np.eye(5)
    lo, hi = np.floor(indices).astype(np.int32), np.ceil(indices).astype(np.int32)
    t = np.where(lo == hi, 0.0, indices - lo)[:, None]
    e1, e2 = eye[np.clip(lo, 0, 4)], eye[np.clip(hi, 0, 4)]
    W = (1 - t) * e1 + t * e2
    return W, np.diag(np.where(lo == hi, 0.0, (e2 - e1) @ arr))
