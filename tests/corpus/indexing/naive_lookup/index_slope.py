# expect: fail cells
# Gives the index the slope of the array at the chosen entry, a[i + 1] - a[i]; rounding is flat, so it is 0.
import jax.numpy as np


def jac(arr, index):
    i = np.round(index).astype(np.int32)
    return 1.0 * (np.arange(5) == i), arr[np.minimum(i + 1, 4)] - arr[i]
