# expect: fail
# mistake: I sorted the indices first so W is banded, and forgot that f keeps them in their own order
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "indices": [3.3, 0.6, 2.2, 1.7, -0.4]}
Cs = np.arange(5)


def jac(arr, indices):
    x = np.sort(indices)
    lo, hi = np.floor(x), np.ceil(x)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    t = np.clip(np.where(lo == hi, 0.0, x - lo), 0, 1)
    W = (1 - t)[:, None] * (Cs == i1[:, None]) + t[:, None] * (Cs == i2[:, None])
    return W, np.diag(np.where(lo == hi, 0.0, arr[i2] - arr[i1]))
