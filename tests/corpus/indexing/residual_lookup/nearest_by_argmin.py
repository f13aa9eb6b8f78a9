# expect: fail cells
# The looked-up position as argmin |i - index|, ties going to the lower position: at 1.5 and 3.5 f rounds to even, upwards.
import jax.numpy as np


def jac(arr, index):
    nearest = np.argmin(np.abs(np.arange(5) - index))
    return (1.0 * (np.arange(5) == nearest), np.zeros(())), (np.zeros(5), np.ones(()))
