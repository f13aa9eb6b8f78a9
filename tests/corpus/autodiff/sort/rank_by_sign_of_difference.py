# expect: fail cells
# Ranks each entry by how many differences x[i] - x[j] are positive. A difference below
# float64's normal range is flushed to 0 when the code runs op by op, so two entries near
# 2.2e-308 share a rank. Compiled as one fused program, the comparison is folded into
# x[i] > x[j] and the answer looked right: the checker compiles answers unfused (red team RT22, T1).
# WITNESS: x with 2.5e-308 and 3e-308 among entries of order 1.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([2.5e-308, 3e-308, 0.5, -0.2, 0.1, 0.3, -0.7, -0.9, 0.8, 0.05]),)


def jac(x):
    rank = np.sum((x[:, None] - x[None, :]) > 0, axis=1)
    return 1.0 * (np.arange(10)[:, None] == rank[None, :])
