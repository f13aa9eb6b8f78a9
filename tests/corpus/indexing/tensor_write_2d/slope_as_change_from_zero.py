# expect: fail cancellation
# The pull element - arr taken as (f - arr) / mask with mask = outer(x, y), element - arr only
# where the mask is below 2e-8. Just above, f - arr cancels where element is close to arr (red
# team RT36). WITNESS: y nearly one-hot, its small weight 6e-8; arr and element within 1e-6.
import jax.numpy as np
import numpy as onp

E3 = np.eye(3)
E2 = np.eye(2)
_BASE = onp.array([0.918, 0.965])
_RNG = onp.random.default_rng(36)
WITNESS = (_BASE * (1 + 1e-6 * _RNG.uniform(-1, 1, (3, 3, 2))), _BASE * (1 + 1e-6 * onp.array([0.5, -0.7])),
           onp.array([0.2, 0.5, 0.3]), onp.array([1 - 6e-8, 6e-8, 0.0]))


def jac(arr, element, x_index, y_index):
    mask = np.outer(x_index, y_index)[:, :, None]
    f = (1 - mask) * arr + mask * element[None, None, :]
    small = mask < 2e-8
    pull = np.where(small, element[None, None, :] - arr, (f - arr) / np.where(small, 1.0, mask))
    d_arr = np.einsum("ik,jl,cd,ij->ijckld", E3, E3, E2, 1 - mask[:, :, 0])
    d_element = np.einsum("cd,ij->ijcd", E2, mask[:, :, 0])
    d_x = np.einsum("ik,j,ijc->ijck", E3, y_index, pull)
    d_y = np.einsum("jk,i,ijc->ijck", E3, x_index, pull)
    return d_arr, d_element, d_x, d_y
