# expect: fail
# mistake: row r depends on "its" index, which I found by value (indices == indices[r]) instead of by position
import jax.numpy as np

WITNESS = {"indices": [2.5, 2.5, 0.3, 1.7, 3.2]}
Cs = np.arange(5)


def jac(indices, bandwidth):
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    rows = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    mine = indices[:, None] == indices[None, :]  # (r, s): x_s is row r's index
    return rows[:, :, None] * mine[:, None, :]
