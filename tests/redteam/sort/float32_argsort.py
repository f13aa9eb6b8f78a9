# expect: fail
# mistake: the order taken on float32 copies: two entries 1e-9 apart become equal and keep their index order, whichever is larger
import jax.numpy as np

WITNESS = {"x": [0.3, 0.5000000001, 0.5, -0.2, 0.9, -0.7, 0.1, 0.6, -0.4, 0.8]}
Is = np.arange(10)


def jac(x):
    return 1.0 * (Is == np.argsort(x.astype(np.float32), stable=True)[:, None])
