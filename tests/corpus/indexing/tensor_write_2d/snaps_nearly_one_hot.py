# expect: fail cells
# x_index snapped to one-hot once its largest weight is within 1e-9 of 1: the mask then writes
# the element wholly where it writes 1 - 9e-10 of it, and nothing where it writes 4.5e-10 of it,
# 560 times the contract at the witness (red team RT24, I2; the nearly one-hot draws at
# 1e-9 and 1e-11 from it reach it).
# WITNESS: arr = entries in [-1, 1], element = (0.3, -0.7), x_index = (1 - 9e-10, 4.5e-10, 4.5e-10), y_index = (0.2, 0.3, 0.5).
import jax.numpy as np
import numpy as onp

I3 = np.arange(3)
C2 = np.arange(2)
SAME = (
    (I3[:, None, None, None, None, None] == I3[None, None, None, :, None, None])
    & (I3[None, :, None, None, None, None] == I3[None, None, None, None, :, None])
    & (C2[None, None, :, None, None, None] == C2)
)
WITNESS = (onp.linspace(-0.9, 0.8, 18).reshape(3, 3, 2), onp.array([0.3, -0.7]),
           onp.array([1 - 9e-10, 4.5e-10, 4.5e-10]), onp.array([0.2, 0.3, 0.5]))


def hard(w):
    return np.where(np.max(w) > 1 - 1e-9, 1.0 * (np.arange(w.shape[0]) == np.argmax(w)), w)


def jac(arr, element, x_index, y_index):
    x_index, y_index = hard(x_index), hard(y_index)
    mask = np.outer(x_index, y_index)[:, :, None]
    pull = element[None, None, :] - arr
    d_arr = SAME * (1 - mask)[..., None, None, None]
    d_element = mask[..., None] * (C2[:, None] == C2)
    d_x = (I3[:, None, None, None] == I3) * (y_index[None, :, None] * pull)[..., None]
    d_y = (I3[None, :, None, None] == I3) * (x_index[:, None, None] * pull)[..., None]
    return d_arr, d_element, d_x, d_y
