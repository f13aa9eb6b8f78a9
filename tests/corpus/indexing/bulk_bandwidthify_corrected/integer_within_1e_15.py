# expect: fail near-lattice
# Each index within 1e-15 of an integer is taken as that integer: an index one ulp away gets no
# slope, where f's interpolation weight still moves with it.
# WITNESS: indices = (2 + 2^-51, 0.3, 1.7, -0.5, 4.2), bandwidth 5.
import jax.numpy as np
import numpy as onp

Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)
WITNESS = (onp.array([onp.nextafter(2.0, 3.0), 0.3, 1.7, -0.5, 4.2]), 5)


def jac(indices, bandwidth):
    lo, hi = np.floor(indices), np.ceil(indices)
    i1 = np.clip(lo, 0, bandwidth - 1).astype(np.int32)
    i2 = np.clip(hi, 0, bandwidth - 1).astype(np.int32)
    Cs = np.arange(bandwidth)
    whole = np.abs(indices - np.round(indices)) < 1e-15
    rows = np.where(whole[:, None], 0.0, 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None]))
    return rows[:, :, None] * (Rs == Ss)
