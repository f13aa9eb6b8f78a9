# expect: pass
# Correct: the column sums on the diagonal for arr, and a_c dW[s, c] for indices, both written as einsums.
import jax.numpy as np


def jac(arr, indices):
    eye = np.eye(5)
    lo, hi = np.floor(indices).astype(np.int32), np.ceil(indices).astype(np.int32)
    t = np.where(lo == hi, 0.0, indices - lo)[:, None]
    e1, e2 = eye[np.clip(lo, 0, 4)], eye[np.clip(hi, 0, 4)]
    W = t * e1 + (1 - t) * e2
    dW = np.where((lo == hi)[:, None], 0.0, e1 - e2)
    d_arr = np.einsum("rc,ck->ck", W, eye)[:, None, :]
    d_indices = np.einsum("c,sc->cs", arr, dW)[:, None, :]
    return d_arr, d_indices
