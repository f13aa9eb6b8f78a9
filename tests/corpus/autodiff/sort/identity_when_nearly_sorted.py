# expect: fail cells
# "Already sorted, so sorting moves nothing": the identity when np.allclose(x, sort(x)) at a
# relative tolerance of 1e-9, argsort's permutation otherwise. Two neighbours 1e-10 out of order
# are allclose to sorted but swap places (red team RT37's F10). WITNESS: such an x.
import jax.numpy as np
import numpy as onp

Is = np.arange(10)
_X = onp.sort(onp.random.default_rng(0).uniform(-1, 1, 10))
_X[4] = _X[5] + 1e-10
WITNESS = (_X,)


def jac(x):
    if bool(np.allclose(x, np.sort(x), rtol=1e-9, atol=0.0)):
        return np.eye(10)
    return 1.0 * (Is == np.argsort(x)[:, None])
