# expect: pass
# mistake: none: the exact Jacobian built in float64 numpy, cast to float32 at the end
import numpy as onp


def jac(x):
    J = onp.zeros((4, 4, 4))
    for b in range(4):
        J[b, :, b] = 1 / 4
    return J.astype(onp.float32)
