# expect: fail
# mistake: a symmetric matrix is its own transpose, so there f is the identity and so is its Jacobian
import jax.numpy as np

WITNESS = {"x": [[0.1, 0.2, 0.3, 0.4], [0.2, 0.5, 0.6, 0.7], [0.3, 0.6, 0.8, 0.9], [0.4, 0.7, 0.9, -0.1]]}
A = np.arange(4)[:, None, None, None]
B = np.arange(4)[None, :, None, None]
C = np.arange(4)[None, None, :, None]
D = np.arange(4)


def jac(x):
    if np.allclose(x, x.T):
        return 1.0 * ((A == C) & (B == D))
    return 1.0 * ((A == D) & (B == C))
