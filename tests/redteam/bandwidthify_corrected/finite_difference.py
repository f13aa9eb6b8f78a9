# expect: fail
# mistake: central differences in float64 (h = 1e-6), with the statement's 0 at exact integers
import numpy as onp

WITNESS = {"index": 2.0000004}


def f(x, bandwidth):
    lo, hi = onp.floor(x), onp.ceil(x)
    t = 0.0 if hi == lo else (x - lo) / (hi - lo)
    lo, hi = int(onp.clip(lo, 0, bandwidth - 1)), int(onp.clip(hi, 0, bandwidth - 1))
    t = onp.clip(t, 0, 1)
    eye = onp.eye(bandwidth)
    return (1 - t) * eye[lo] + t * eye[hi]


def jac(index, bandwidth):
    x = float(index)
    if onp.floor(x) == onp.ceil(x):
        return onp.zeros(bandwidth)
    h = 1e-6
    return (f(x + h, bandwidth) - f(x - h, bandwidth)) / (2 * h)
