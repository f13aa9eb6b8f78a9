# expect: fail cells
# A row whose runner-up is more than 30 behind taken as one-hot, "weights below e^-30 are nothing":
# with every row saturated and its label on its top, those weights are the whole Jacobian (red team
# RT34's F9, passed seeds 0 and 1).
# WITNESS: logits = ((1000, 960, 950, 950), (-500, -540, -545, -550)), labels = (0, 0).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1000.0, 960.0, 950.0, 950.0], [-500.0, -540.0, -545.0, -550.0]]), onp.array([0, 0]))
Ks = np.arange(4)


def jac(logits, labels):
    m = np.max(logits, axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e / np.sum(e, axis=1, keepdims=True)
    top = np.argmax(logits, axis=1)[:, None]
    gap = m - np.max(np.where(Ks == top, -np.inf, logits), axis=1, keepdims=True)
    s = np.where(gap > 30, 1.0 * (Ks == top), s)
    return (s - (Ks == labels[:, None])) / 2
