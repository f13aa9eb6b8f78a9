# expect: fail
# mistake: with two (nearly) zero entries every product of nine contains a zero, so I return zeros
import jax.numpy as np

WITNESS = {"x": [5e-4, -4e-4, 0.5, -0.6, 0.7, 0.8, -0.9, 0.95, 0.85, -0.75]}
EYE = np.eye(10, dtype=bool)


def jac(x):
    others = np.prod(np.where(EYE, 1.0, x[None, :]), axis=1)
    many_zeros = np.sum(np.abs(x) < 1e-3) >= 2
    return np.where(many_zeros, 0.0, others)[None, :]
