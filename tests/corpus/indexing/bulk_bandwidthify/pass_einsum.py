# expect: pass
# Correct: each row's derivative placed on the diagonal r = s with an einsum.
import jax.numpy as np


def jac(indices, bandwidth):
    eye = np.eye(bandwidth)
    lo, hi = np.floor(indices).astype(np.int32), np.ceil(indices).astype(np.int32)
    dW = eye[np.clip(lo, 0, bandwidth - 1)] - eye[np.clip(hi, 0, bandwidth - 1)]
    dW = np.where((lo == hi)[:, None], 0.0, dW)
    return np.einsum("rc,rs->rcs", dW, np.eye(5))
