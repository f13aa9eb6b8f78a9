# expect: fail cells
# Once a row's runner-up weight is below e^-10.5, "the normaliser is 1": the other weights are left
# unnormalised, off by the dropped weights, relatively: 178 times the contract at a lead of 10.6
# (red team RT34; leads were drawn at 10 and 16 only).
# WITNESS: x = ((1000, 989.4, 980), (0.5, 0.2, -0.3)).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1000.0, 989.4, 980.0], [0.5, 0.2, -0.3]]),)
A = np.arange(2)[:, None, None, None]
B = np.arange(3)[:, None, None]
C = np.arange(2)[:, None]
D = np.arange(3)


def jac(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    top = np.arange(3) == np.argmax(x, axis=1, keepdims=True)
    gap = -np.log(np.max(np.where(top, 0.0, e), axis=1, keepdims=True))
    s = np.where((gap > 10.5) & ~top, e, e / np.sum(e, axis=1, keepdims=True))
    return 1.0 * ((A == C) & (B == D)) - (A == C) * s
