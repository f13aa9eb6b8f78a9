# expect: pass
# mistake: none: the slope 2 is exact in bfloat16, so a bfloat16 block is still right
import jax.numpy as np


def jac(x):
    return np.full((1, 1), 2.0, dtype=np.bfloat16)
