# expect: fail near-lattice
# Treats an index within 1e-15 of an integer as that integer (t = 0, no slope): one ulp above 2
# (4.4e-16 away) is no integer, so floor and ceil differ and d f / d index is arr[3] - arr[2].
# WITNESS: index = 2 + 2^-51.
import jax.numpy as np
import numpy as onp

Is = np.arange(5)
WITNESS = (onp.array([0.45, -0.6, 0.15, 0.85, -0.35]), onp.nextafter(2.0, 3.0))


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    whole = np.abs(index - np.round(index)) < 1e-15
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = np.where(whole, 1.0 * (Is == np.round(index)), (1 - t) * (Is == i1) + t * (Is == i2))
    return d_arr, np.where(whole, 0.0, arr[i2] - arr[i1])
