# expect: fail sign
# one-hot minus softmax: the gradient of the log-probability, not of the loss (its negative).
import jax.numpy as np

Ks = np.arange(4)


def jac(logits, labels):
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    s = e / np.sum(e, axis=1, keepdims=True)
    return ((Ks == labels[:, None]) - s) / 2
