# expect: fail
# mistake: my own round-half-to-even, with a 1e-12 tolerance on the ".5" test so float noise can't miss a tie
import jax.numpy as np

WITNESS = {"arr": [0.1, -0.2, 0.3, 0.4, -0.5], "index": 1.4999999999999}
Is = np.arange(5)


def jac(arr, index):
    lo = np.floor(index)
    half = np.abs(index - lo - 0.5) < 1e-12
    even = np.where(lo % 2 == 0, lo, lo + 1)
    i = np.where(half, even, np.round(index))
    return 1.0 * (Is == i), np.zeros(())
