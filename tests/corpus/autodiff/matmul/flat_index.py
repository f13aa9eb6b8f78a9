# expect: error exception
# Indexes the flat x and y with two indices, forgetting the reshape: IndexError.
import jax.numpy as np

Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(x, y):
    dx = (Os // 2 == Is // 2) * y[Is % 2, Os % 2]
    dy = (Os % 2 == Is % 2) * x[Os // 2, Is // 2]
    return dx, dy
