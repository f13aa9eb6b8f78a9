# expect: fail
# mistake: I scattered each index's two weights into the totals with .at[].set (repeated positions overwrite)
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "indices": [1.3, 1.6, 3.5, 0.2, 2.7]}
Cs = np.arange(5)


def jac(arr, indices):
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    t = np.clip(np.where(lo == hi, 0.0, indices - lo), 0, 1)
    total = np.zeros(5).at[i1].set(t) + np.zeros(5).at[i2].set(1 - t)
    dW = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return (total[:, None] * (Cs[:, None] == Cs))[:, None, :], (arr[:, None] * dW.T)[:, None, :]
