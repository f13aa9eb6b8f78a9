# expect: fail
# mistake: the argmax of each window taken on float32 copies: two entries 1e-9 apart become equal and the first wins, the runner-up when it comes first
import jax.numpy as np

WITNESS = {"x": [0.5, 0.6, 0.7999999999, 0.8, -0.3, 0.1, 0.2, -0.9]}
Is = np.arange(8)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(2)


def jac(x):
    winner = 2 * Os + np.argmax(x.astype(np.float32)[windows], axis=1)[:, None]
    return 1.0 * (Is == winner)
