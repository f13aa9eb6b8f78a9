# expect: fail cells
# Takes sin x as x - x^3/6 below 0.0592 ("small angles"): the first term it drops, x^5/120, is
# beyond the contract's 1e-7 (relative: the block is this one entry) from 0.05885 up, so it is
# wrong only there, by up to 1.02 times the contract (red team RT29: passed every seed).
# WITNESS: x = 0.05919.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([0.05919]),)


def jac(x):
    s = np.where(np.abs(x) < 0.0592, x - x**3 / 6, np.sin(x))
    return -s[:, None]
