# expect: fail cells
# Takes a segment as flat when its two ends are equal "up to rounding", 8 machine epsilons of
# their size: 4 ulps apart (0.7 and the fourth float above it), the slope in the index is those
# 4 ulps, exactly, and 0 is wrong by all of it (red team RT29: passed every seed).
# WITNESS: arr = (0.1, 0.7, 0.7 + 4 ulps, -0.4, 0.9), index = 1.5.
import jax.numpy as np
import numpy as onp

Is = np.arange(5)
_UP = onp.nextafter(onp.nextafter(onp.nextafter(onp.nextafter(0.7, 1.0), 1.0), 1.0), 1.0)
WITNESS = (onp.array([0.1, 0.7, _UP, -0.4, 0.9]), onp.float64(1.5))


def jac(arr, index):
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = (1 - t) * (Is == i1) + t * (Is == i2)
    flat = np.abs(arr[i2] - arr[i1]) <= 8 * 2.220446049250313e-16 * np.maximum(np.abs(arr[i1]), np.abs(arr[i2]))
    return d_arr, np.where(whole | flat, 0.0, arr[i2] - arr[i1])
