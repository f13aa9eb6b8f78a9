# expect: fail cells
# Every output routed to the largest entry of the whole input rather than of its own window.
import jax.numpy as np

Is = np.arange(8)


def jac(x):
    return np.broadcast_to(1.0 * (Is == np.argmax(x)), (4, 8))
