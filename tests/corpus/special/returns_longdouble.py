# expect: pass
# puzzle: neg
# The exact Jacobian in extended precision (np.longdouble), judged as float64.
import numpy as np


def jac(x):
    return -np.eye(10, dtype=np.longdouble)
