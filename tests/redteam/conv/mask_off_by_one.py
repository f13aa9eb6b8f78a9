# expect: fail
# mistake: the kernel offset k = o + 4 - i must satisfy 0 <= k < 4 (off by one: y has 5 taps)
import jax.numpy as np

WITNESS = {"x": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05], "y": [0.3, -0.1, 0.5, 0.2, 0.7]}
O = np.arange(6)[:, None]
I = np.arange(10)[None, :]
J = np.arange(5)[None, :]


def jac(x, y):
    k = O + 4 - I
    dx = np.where((k >= 0) & (k < 4), y[np.clip(k, 0, 4)], 0.0) / 5
    dy = x[O + 4 - J] / 5
    return dx, dy
