# expect: fail cells
# Normalises each example over its features (layer norm's axis) instead of each feature over the batch.
import jax.numpy as np

A = np.arange(4)[:, None, None, None]
D = np.arange(2)[:, None, None]
C = np.arange(4)[:, None]
E = np.arange(2)


def jac(x):
    centred = x - np.mean(x, axis=1, keepdims=True)
    sigma = np.sqrt(np.mean(centred**2, axis=1, keepdims=True) + 1e-5)
    y = centred / sigma
    within = (D == E) - 1 / 2 - y[:, :, None, None] * y[:, None, None, :] / 2  # within example a
    return (A == C) * within / sigma[:, :, None, None]
