# expect: fail
# mistake: "the entry nearest the target": I measured the distance to r, the looked-up value
import jax.numpy as np

WITNESS = {
    "v": [[0.1, 0.5, 0.9], [0.3, -0.4, 0.5]],
    "k": [[0.2, 0.1, 0.7], [0.6, 0.3, 0.1]],
    "g": [0.45, -0.5],
}


def vjp(v, k, g):
    r = np.take_along_axis(v, np.argmax(k, axis=1)[:, None], axis=1)[:, 0]
    nearest = np.argmin((v - r[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.abs(g)[:, None] * np.where(hit, -1.0, 1.0)
