# expect: pass
# Correct, without argmax: the winning cell of each channel as a one-hot mask `masked == max`, then the product rule.
import jax.numpy as np


def jac(arr, x_index, y_index):
    mask = np.outer(x_index, y_index)[:, :, None]
    masked = mask * arr
    win = 1.0 * (masked == np.max(masked, axis=(0, 1)))  # (3, 3, 2), one 1 per channel
    d_arr = np.einsum("ijc,cd->cijd", win * mask, np.eye(2))
    d_x = np.einsum("ijc,j,ijc->ci", win, y_index, arr)
    d_y = np.einsum("ijc,i,ijc->cj", win, x_index, arr)
    return d_arr, d_x, d_y
