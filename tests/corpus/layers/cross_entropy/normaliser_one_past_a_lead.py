# expect: fail cells
# Once a row's runner-up weight is below e^-10.5, "the normaliser is 1": the other weights are left
# unnormalised, off by the dropped weights, relatively: 186 times the contract at a lead of 10.6
# (red team RT34; leads were drawn at 10 and 16 only).
# WITNESS: logits = ((1000, 989.4, 980, 980), (0.5, 0.2, -0.3, 0.1)), labels = (0, 2).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1000.0, 989.4, 980.0, 980.0], [0.5, 0.2, -0.3, 0.1]]), onp.array([0, 2]))
Ks = np.arange(4)


def jac(logits, labels):
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    top = Ks == np.argmax(logits, axis=1, keepdims=True)
    gap = -np.log(np.max(np.where(top, 0.0, e), axis=1, keepdims=True))
    s = np.where((gap > 10.5) & ~top, e, e / np.sum(e, axis=1, keepdims=True))
    return (s - (Ks == labels[:, None])) / 2
