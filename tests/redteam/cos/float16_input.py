# expect: fail
# mistake: I cast the angle to float16 to save memory; near 3 its spacing is 0.002
import jax.numpy as np

WITNESS = {"x": [2.9995]}


def jac(x):
    return -np.sin(x.astype(np.float16)).astype(np.float32)[:, None]
