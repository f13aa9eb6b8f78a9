# expect: fail cells
# Each weight as 1 / sum_j exp(x_j - x_i) with the exponent clipped at 700, "so that exp never
# overflows": with every row saturated and its label on its top, the whole Jacobian is as small as
# the runner-up weights, and the clip puts 5e-305 where they are 0 (red team RT34's F12).
# WITNESS: logits = ((1000, 310, 200, 200), (1000, 310, 200, 200)), labels = (0, 0).
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[1000.0, 310.0, 200.0, 200.0], [1000.0, 310.0, 200.0, 200.0]]), onp.array([0, 0]))
Ks = np.arange(4)


def jac(logits, labels):
    s = 1.0 / np.sum(np.exp(np.clip(logits[:, None, :] - logits[:, :, None], None, 700.0)), axis=2)
    return (s - (Ks == labels[:, None])) / 2
