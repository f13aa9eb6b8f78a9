# expect: error structure
# Returns a Jacobian for the integer index too: only vector and target are floating, so the answer is a pair.
import jax.numpy as np

Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(vector, index, target):
    return 1.0 * ((Is == Os) & (Os != index)), np.zeros(4), 1.0 * (Is == index)
