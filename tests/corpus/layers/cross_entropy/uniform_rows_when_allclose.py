# expect: fail cells
# An example whose logits are allclose (numpy's default tolerance) gets the softmax 1/4 in every
# class: logits 9e-6 apart near 0.9 move it by about 2.5e-6, past the contract (red team RT22,
# S4).
# WITNESS: logits = ((0.9, 0.900009, 0.899991, 0.900004), (0.1, -0.5, 0.3, 0.7)), labels = (1, 2).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[0.9, 0.900009, 0.899991, 0.900004], [0.1, -0.5, 0.3, 0.7]]), onp.array([1, 2]))
Ks = np.arange(4)


def jac(logits, labels):
    level = np.all(np.abs(logits - logits[:, :1]) <= 1e-8 + 1e-5 * np.abs(logits[:, :1]), axis=1, keepdims=True)
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    s = np.where(level, 1 / 4, e / np.sum(e, axis=1, keepdims=True))
    return (s - (Ks == labels[:, None])) / 2
