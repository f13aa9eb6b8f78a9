# expect: pass
# Correct: +1 at each row's clipped ceiling and -1 at its floor, on the diagonal r = s, built with broadcasting.
import jax.numpy as np


def jac(indices, bandwidth):
    Rs, Cs, Ss = np.arange(5)[:, None, None], np.arange(bandwidth)[None, :, None], np.arange(5)
    lo, hi = np.floor(indices), np.ceil(indices)
    i1 = np.clip(lo, 0, bandwidth - 1)[:, None, None]
    i2 = np.clip(hi, 0, bandwidth - 1)[:, None, None]
    between = (lo != hi)[:, None, None]
    return (Rs == Ss) * between * ((Cs == i2) * 1.0 - (Cs == i1))
