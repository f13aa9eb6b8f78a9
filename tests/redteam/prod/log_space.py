# expect: pass
# mistake: none: products of the other entries in log space, log|0| = -inf giving exactly 0, signs counted apart
import jax.numpy as np

EYE = np.eye(10, dtype=bool)


def jac(x):
    logs = np.where(EYE, 0.0, np.log(np.abs(x))[None, :])
    negatives = np.sum(np.where(EYE, False, x[None, :] < 0), axis=1)
    sign = np.where(negatives % 2 == 0, 1.0, -1.0)
    return (sign * np.exp(np.sum(logs, axis=1)))[None, :]
