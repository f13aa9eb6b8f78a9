# expect: fail cells
# Reads a lookup whose weights along one axis all agree with 1/3 to 1e-9/3 as a plain mean over
# that axis: off by the weights' 1e-10 spread, beyond the contract where the slope in x_index
# crosses zero (red team RT38).
# WITNESS: y_index within 3e-10 of uniform; arr's entry [0, 2, 0] set so that d f[0] / d x_index[0] is 0.
import jax.numpy as np
import numpy as onp

_Y = onp.array([1 / 3 + 3e-10, 1 / 3 - 3e-10, 1 / 3])
_ARR = onp.array([[[0.4, -0.7], [0.9, 0.2], [0.0, 0.5]],
                  [[-0.3, 0.8], [0.6, -0.1], [0.2, 0.7]],
                  [[0.5, -0.6], [-0.8, 0.3], [0.1, -0.2]]])
_ARR[0, 2, 0] = -(_Y[0] * _ARR[0, 0, 0] + _Y[1] * _ARR[0, 1, 0]) / _Y[2]
WITNESS = (_ARR, onp.array([0.5, 0.3, 0.2]), _Y)


def jac(arr, x_index, y_index):
    mask = x_index[:, None] * y_index[None, :]
    d_arr = mask[None, :, :, None] * np.eye(2)[:, None, None, :]
    d_x = np.sum(y_index[None, :, None] * arr, axis=1).T
    d_y = np.sum(x_index[:, None, None] * arr, axis=0).T
    uniform_y = np.all(np.abs(y_index - 1 / 3) <= 1e-9 / 3)
    uniform_x = np.all(np.abs(x_index - 1 / 3) <= 1e-9 / 3)
    d_x = np.where(uniform_y, np.mean(arr, axis=1).T, d_x)
    d_y = np.where(uniform_x, np.mean(arr, axis=0).T, d_y)
    return d_arr, d_x, d_y
