# expect: fail
# mistake: forward difference in float64 for d f / d x (f is piecewise linear, so it is exact... I thought)
import numpy as onp
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 1.9999995}


def weights(x):
    lo, hi = onp.floor(x), onp.ceil(x)
    t = 0.0 if hi == lo else (x - lo) / (hi - lo)
    lo, hi = int(onp.clip(lo, 0, 4)), int(onp.clip(hi, 0, 4))
    t = onp.clip(t, 0, 1)
    return t * onp.eye(5)[lo] + (1 - t) * onp.eye(5)[hi]


def jac(arr, index):
    a, x = onp.asarray(arr, dtype=onp.float64), float(index)
    w = weights(x)
    if onp.floor(x) == onp.ceil(x):
        return w[None, :], onp.zeros(1)
    h = 1e-6
    slope = (weights(x + h) @ a - w @ a) / h
    return w[None, :], onp.array([slope])
