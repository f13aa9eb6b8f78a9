# expect: fail cells
# "A flat table: the index does not matter", so d f / d index = 0 when every entry of arr is
# `math.isclose` to the first (relative 1e-9). The slope is a difference of neighbours, small
# but not 0 (red team RT37's F12). WITNESS: arr within 5e-10 of 0.6, the index inside it.
import math

import jax.numpy as np
import numpy as onp

Is = np.arange(5)
WITNESS = (0.6 * (1 + 1e-10 * onp.array([0.0, 3.0, -2.0, 5.0, 1.0])), onp.array(1.4))


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    t = np.where(hi == lo, 0.0, index - lo)
    i1, i2 = lo.astype(int), hi.astype(int)
    d_index = np.where(hi == lo, 0.0, arr[i1] - arr[i2])
    if all(math.isclose(float(a), float(arr[0])) for a in arr):
        d_index = 0.0 * d_index
    return t * (Is == i1) + (1 - t) * (Is == i2), d_index
