# expect: fail
# mistake: a later entry wins a window only when it beats the first by more than 1e-9 relatively ("ties go to the first")
import jax.numpy as np

WITNESS = {"x": [0.5, 0.6, 0.7999999999999, 0.8, -0.3, 0.1, 0.2, -0.9]}
Is = np.arange(8)
Os = np.arange(4)[:, None]


def jac(x):
    first, second = x[0::2], x[1::2]
    later = second > first + 1e-9 * np.abs(first)
    winner = 2 * Os[:, 0] + later
    return 1.0 * (Is == winner[:, None])
