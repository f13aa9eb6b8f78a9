# expect: fail cells
# Takes a probability vector within 5e-12 of one-hot as a hard index ("the rest is float
# noise"): the weight it drops, up to 5e-12 against a block of scale 1, is beyond the contract's
# 1e-12 (red team RT29: passed every seed; RT24's snap at 1e-9 is caught by deeper draws).
# WITNESS: indices = (1 - 4.9e-12, 4.9e-12, 0, 0, 0).
import jax.numpy as np
import numpy as onp

Os = np.arange(5)[:, None, None]
Js = np.arange(5)
WITNESS = (onp.linspace(-1.0, 1.0, 25).reshape(5, 5), onp.array([1 - 4.9e-12, 4.9e-12, 0.0, 0.0, 0.0]))


def jac(arr, indices):
    hard = 1 - np.max(indices) < 5e-12
    p = np.where(hard, 1.0 * (Js == np.argmax(indices)), indices)
    return p[None, :, None] * (Os == Js), arr.T
