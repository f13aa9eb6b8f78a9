# expect: fail near-lattice
# Treats an index within 1e-13 of an integer as that integer: right on exact integers and between them, wrong 1e-14 away, where f still sees two neighbours.
import jax.numpy as np

Is = np.arange(5)


def jac(arr, index):
    r = np.round(index)
    whole = np.abs(index - r) < 1e-13
    lo = np.where(whole, r, np.floor(index))
    hi = np.where(whole, r, np.ceil(index))
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    return t * (Is == i1) + (1 - t) * (Is == i2), np.where(whole, 0.0, arr[i1] - arr[i2])
