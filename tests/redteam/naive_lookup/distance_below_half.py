# expect: fail
# mistake: the chosen entry is the one within 0.5 of the index (both, at a tie)
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 1.5}


def jac(arr, index):
    return 1.0 * (np.abs(np.arange(5) - index) <= 0.5), np.zeros(())
