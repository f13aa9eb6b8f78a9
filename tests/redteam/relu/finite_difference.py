# expect: fail
# mistake: I took central differences in float64 with h = 1e-4 (smeared across the kink)
import numpy as onp

WITNESS = {"x": [5e-5, 0.5, -0.3, 0.7, 0.2, -0.9, 0.4, 0.6, -0.5, 0.8]}


def relu(x):
    return onp.where(x > 0, x, 0.0)


def jac(x):
    x = onp.asarray(x, dtype=onp.float64)
    h = 1e-4
    J = onp.zeros((10, 10))
    for i in range(10):
        e = onp.zeros(10)
        e[i] = h
        J[:, i] = (relu(x + e) - relu(x - e)) / (2 * h)
    return J
