# expect: pass
# puzzle: neg
# The exact Jacobian in ml_dtypes' int4, a type numpy does not count as a number: its values are
# whole numbers all the same, read like int8's (red team RT39's S2: refused as "not numbers").
import ml_dtypes
import numpy as np


def jac(x):
    return (-np.eye(10)).astype(ml_dtypes.int4)
