# expect: pass
# mistake: none: numpy float64 array filled with np.float32(1 / 3), float32-accurate like the puzzle's arrays
import numpy as onp


def jac(x):
    o = onp.arange(8)[:, None]
    i = onp.arange(10)[None, :]
    J = onp.zeros((8, 10))
    J[(i >= o) & (i < o + 3)] = onp.float32(1 / 3)
    return J
