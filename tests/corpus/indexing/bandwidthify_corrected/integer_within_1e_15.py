# expect: fail near-lattice
# np.isclose-style snapping with a tolerance of 1e-15: an index one ulp above an integer is
# snapped onto it and gets the zero derivative of an integer index.
# WITNESS: index = 2 + 2^-51, bandwidth 5.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.nextafter(2.0, 3.0), 5)


def jac(index, bandwidth):
    lo, hi = np.floor(index), np.ceil(index)
    i1 = np.clip(lo, 0, bandwidth - 1).astype(np.int32)
    i2 = np.clip(hi, 0, bandwidth - 1).astype(np.int32)
    Cs = np.arange(bandwidth)
    whole = np.abs(index - np.round(index)) < 1e-15
    return np.where(whole, 0.0, 1.0 * (Cs == i2) - (Cs == i1))
