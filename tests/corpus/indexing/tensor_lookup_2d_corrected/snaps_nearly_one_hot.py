# expect: fail cells
# "A soft index that is one-hot up to rounding is a hard index": x_index snapped to one-hot once
# its largest weight is within 1e-9 of 1, dropping weights of 4.5e-10 that the mask still holds,
# 450 times the contract at the witness (red team RT24, I1; the nearly one-hot draws at 1e-9 and
# 1e-11 from it reach it).
# WITNESS: arr = entries in [-5, 5], x_index = (1 - 9e-10, 4.5e-10, 4.5e-10), y_index = (0.2, 0.3, 0.5).
import jax.numpy as np
import numpy as onp

Chans = np.arange(2)
WITNESS = (onp.linspace(-4.5, 4.0, 18).reshape(3, 3, 2), onp.array([1 - 9e-10, 4.5e-10, 4.5e-10]),
           onp.array([0.2, 0.3, 0.5]))


def hard(w):
    return np.where(np.max(w) > 1 - 1e-9, 1.0 * (np.arange(w.shape[0]) == np.argmax(w)), w)


def jac(arr, x_index, y_index):
    x_index, y_index = hard(x_index), hard(y_index)
    mask = np.outer(x_index, y_index)
    d_arr = mask[None, :, :, None] * (Chans[:, None, None, None] == Chans)
    return d_arr, np.einsum("j,ijc->ci", y_index, arr), np.einsum("i,ijc->cj", x_index, arr)
