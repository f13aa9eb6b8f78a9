# expect: fail cells
# Answers for what the function was meant to do, one lookup per index (f = W a, each block with f's (5, 1) axes), not the sum over axis 0 it computes.
import jax.numpy as np

Rs = np.arange(5)[:, None]
Ss = np.arange(5)


def jac(arr, indices):
    Cs = np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    t = np.where(lo == hi, 0.0, indices - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    W = t[:, None] * (Cs == i1[:, None]) + (1 - t)[:, None] * (Cs == i2[:, None])
    slope = np.where(lo == hi, 0.0, arr[i1] - arr[i2])
    return W[:, None, :], (slope[:, None] * (Rs == Ss))[:, None, :]
