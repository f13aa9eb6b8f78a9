# expect: fail nonfinite
# puzzle: neg
# The Jacobian in float8_e8m0fnu, a type of powers of two that holds no 0: its zeros become NaN
# on every draw. Told as NaN on every draw and the type named, not as "a division by a zero
# entry" (red team RT39's S1).
import ml_dtypes
import numpy as np


def jac(x):
    return np.eye(10).astype(ml_dtypes.float8_e8m0fnu)
