# expect: fail
# mistake: I stored the 1/3 weights in bfloat16 (it is "just a constant")
import jax.numpy as np

WITNESS = {"x": [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 0.05]}
I = np.arange(10)[None, :]
O = np.arange(8)[:, None]


def jac(x):
    band = (I >= O) & (I < O + 3)
    return band * np.asarray(1 / 3, dtype=np.bfloat16)
