# expect: fail cells
# Takes an input sorted "up to rounding" (no step down by more than 1e-11 of the largest entry)
# as sorted, so each window's max as its last entry: wrong where a window's two entries are out
# of order by less (red team RT38).
# WITNESS: sorted but for x[4] 1e-12 above x[5] (relatively), inside one window.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([-0.9, -0.7, -0.4, 0.1, 0.3 * (1 + 1e-12), 0.3, 0.55, 0.6]),)
Os = np.arange(4)
Is = np.arange(8)


def jac(x):
    rising = np.all(np.diff(x) >= -1e-11 * np.max(np.abs(x)))
    winner = 2 * Os + np.argmax(x.reshape(4, 2), axis=1)
    winner = np.where(rising, 2 * Os + 1, winner)
    return 1.0 * (Is[None, :] == winner[:, None])
