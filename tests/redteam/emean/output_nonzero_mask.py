# expect: fail
# mistake: where the output (x + y) / 2 is 0 nothing flows through, so I masked the slopes with f != 0
import jax.numpy as np

WITNESS = {
    "x": [0.3, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05],
    "y": [-0.3, 0.1, 0.2, -0.6, 0.5, 0.4, -0.1, 0.2, 0.3, -0.45],
}


def jac(x, y):
    d = np.diag(0.5 * ((x + y) / 2 != 0))
    return d, d
