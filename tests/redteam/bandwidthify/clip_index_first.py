# expect: pass
# mistake: none: clipping the index to [0, 4] first; at an integer or past an end e_lo - e_hi is 0 by itself
import jax.numpy as np


def jac(index, bandwidth):
    x = np.clip(index, 0, bandwidth - 1)
    lo, hi = np.floor(x), np.ceil(x)
    Cs = np.arange(bandwidth)
    return (Cs == lo) * 1.0 - (Cs == hi) * 1.0
