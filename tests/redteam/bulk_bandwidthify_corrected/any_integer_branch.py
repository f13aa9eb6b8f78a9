# expect: fail
# mistake: if any index sits on an integer the safe division returns a zero derivative, so I zero everything
import jax.numpy as np

WITNESS = {"indices": [2.0, 0.3, 1.7, 3.2, 0.6]}
Cs = np.arange(5)
Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices, bandwidth):
    lo, hi = np.floor(indices), np.ceil(indices)
    i1, i2 = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    rows = 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None])
    J = rows[:, :, None] * (Rs == Ss)
    return np.where(np.any(lo == hi), 0.0, J)
