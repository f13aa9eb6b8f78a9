# expect: fail
# mistake: I compare the squared distances in bfloat16 (only the argmin is used)
import jax.numpy as np

WITNESS = {
    "v": [[-0.950789, 0.949105, 1.0], [0.3, -0.4, 0.5]],
    "k": [[0.2, 0.1, 0.7], [0.6, 0.3, 0.1]],
    "g": [1.0, -0.5],
}


def vjp(v, k, g):
    r = np.take_along_axis(v, np.argmax(k, axis=1)[:, None], axis=1)[:, 0]
    target = r - g
    nearest = np.argmin(((v - target[:, None]) ** 2).astype(np.bfloat16), axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * np.where(hit, -1.0, 1.0)
