# expect: fail factor
# Right for softmax(x), but forgets the chain rule's 1/T: f is softmax(x / 2).
import jax.numpy as np


def jac(x):
    e = np.exp(x / 2 - np.max(x / 2))
    s = e / np.sum(e)
    return np.diag(s) - s[:, None] * s[None, :]
