# expect: fail factor
# The gradient of the summed loss: f is the mean over the batch of 2.
import jax.numpy as np

Ks = np.arange(4)


def jac(logits, labels):
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    return s - (Ks == labels[:, None])
