# expect: fail factor
# Forgets the division by 4: the Jacobian of the column sum.
import jax.numpy as np

Os = np.arange(4)[:, None, None]
Ds = np.arange(4)[None, None, :]


def jac(x):
    return np.broadcast_to(1.0 * (Os == Ds), (4, 4, 4))
