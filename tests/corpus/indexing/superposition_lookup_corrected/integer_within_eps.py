# expect: fail near-lattice
# An index counts as an integer when it is within machine epsilon (2.2e-16) of one: one ulp
# below 1 is not, and there the slope in the index is arr[1] - arr[0], not 0.
# WITNESS: index = 1 - 2^-53.
import jax.numpy as np
import numpy as onp

Cs = np.arange(5)
WITNESS = (onp.array([0.45, -0.6, 0.15, 0.85, -0.35]), onp.nextafter(1.0, 0.0))


def jac(arr, index):
    near = np.round(index)
    whole = np.abs(index - near) <= onp.finfo(onp.float64).eps
    lo, hi = np.where(whole, near, np.floor(index)), np.where(whole, near, np.ceil(index))
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = np.clip(lo, 0, 4).astype(np.int32), np.clip(hi, 0, 4).astype(np.int32)
    weights = (1 - t) * (Cs == i1) + t * (Cs == i2)
    return weights[None, :], np.where(whole, 0.0, arr[i2] - arr[i1])[None]
