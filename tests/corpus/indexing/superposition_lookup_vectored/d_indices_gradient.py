# expect: fail gradient
# d f / d indices as the gradient of sum(f), the row sums of arr, instead of the (5, 5) Jacobian.
import jax.numpy as np

Os = np.arange(5)[:, None, None]
Js = np.arange(5)


def jac(arr, indices):
    return indices[None, :, None] * (Os == Js), np.sum(arr, axis=1)
