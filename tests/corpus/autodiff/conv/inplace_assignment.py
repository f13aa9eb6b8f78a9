# expect: error exception
# NumPy-style loops assigning into an array: JAX arrays are immutable (TypeError).
import jax.numpy as np

def jac(x, y):
    dx = np.zeros((6, 10))
    dy = np.zeros((6, 5))
    for o in range(6):
        for k in range(5):
            dx[o, o + k] = y[4 - k] / 5
            dy[o, 4 - k] = x[o + k] / 5
    return dx, dy
