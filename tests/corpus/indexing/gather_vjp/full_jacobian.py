# expect: fail gradient
# Returns the whole Jacobian of gather, (8, 3, 4, 27, 4), instead of contracting it with g.
import jax.numpy as np

Rs = np.arange(27)[:, None]
Cs = np.arange(4)[:, None, None]
Ds = np.arange(4)


def vjp(embeddings, idx, g):
    return 1.0 * ((idx[:, :, None, None, None] == Rs) & (Cs == Ds))
