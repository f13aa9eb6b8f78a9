# expect: fail cells
# Takes the right entry of a window as the winner when right - left is positive. A difference
# below float64's normal range is flushed to 0 when the code runs op by op, so of two entries
# near 2.2e-308 the left one wins. Compiled as one fused program, the comparison is folded into
# right > left and the answer looked right: the checker compiles answers unfused (red team
# RT22, M1).
# WITNESS: the first window holds 2.5e-308 and 3e-308.
import jax.numpy as np
import numpy as onp

Is = np.arange(8)
Os = np.arange(4)[:, None]
WITNESS = (onp.array([2.5e-308, 3e-308, 0.5, -0.2, 0.1, 0.3, -0.7, -0.9]),)


def jac(x):
    right_wins = (x[1::2] - x[0::2]) > 0
    return 1.0 * (Is == 2 * Os + right_wins[:, None])
