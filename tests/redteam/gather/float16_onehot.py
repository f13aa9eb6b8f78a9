# expect: pass
# mistake: none: a 0/1 Jacobian is exact in float16
import jax.numpy as np

Rs = np.arange(27)[:, None]
Cs = np.arange(4)[:, None, None]
Ds = np.arange(4)


def jac(embeddings, idx):
    return ((idx[:, :, None, None, None] == Rs) & (Cs == Ds)).astype(np.float16)
