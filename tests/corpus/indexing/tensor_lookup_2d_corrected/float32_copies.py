# expect: fail cells
# Computed on float32 copies of the arguments: entries of arr below float32's normal range
# (1.2e-38) are flushed to 0, and so are the blocks in x_index and y_index built from them.
# WITNESS: arr = 1e-40 times entries in [-5, 5], x_index and y_index random in [0, 1].
import jax.numpy as np
import numpy as onp

Chans = np.arange(2)
WITNESS = (1e-40 * onp.linspace(-4.5, 4.0, 18).reshape(3, 3, 2), onp.array([0.25, 0.6, 0.35]),
           onp.array([0.55, 0.15, 0.4]))


def jac(arr, x_index, y_index):
    arr, x_index, y_index = arr.astype(np.float32), x_index.astype(np.float32), y_index.astype(np.float32)
    mask = np.outer(x_index, y_index)
    d_arr = mask[None, :, :, None] * (Chans[:, None, None, None] == Chans)
    return d_arr, np.einsum("j,ijc->ci", y_index, arr), np.einsum("i,ijc->cj", x_index, arr)
