# expect: fail broadcast
# Returns (indices, arr) of shape (5,): f keeps a length-1 axis, so each Jacobian is a (1, 5) row.
import jax.numpy as np


def jac(arr, indices):
    return indices, arr
