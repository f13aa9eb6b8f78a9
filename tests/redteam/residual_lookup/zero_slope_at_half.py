# expect: fail
# mistake: at a half-integer the residue jumps from +0.5 to -0.5, so I gave it slope 0 there
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 1.5}
Is = np.arange(5)


def jac(arr, index):
    i = np.round(index)
    at_half = np.abs(index - i) == 0.5
    return (1.0 * (Is == i), np.zeros(())), (np.zeros(5), np.where(at_half, 0.0, 1.0))
