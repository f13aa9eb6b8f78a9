# expect: fail cells
# |g| written as sqrt(g**2): g**2 underflows to 0 below 1e-154 (red teams, rounds 9 and 12).
# Compiled with XLA's algebraic simplifier it would be |g| again; the checker compiles answers
# without it, so the answer is judged as its code computes. WITNESS: g of 1e-170.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([[0.3, -0.5, 0.8], [-0.2, 0.6, 0.1]]), onp.array([[0.5, 0.2, 0.3], [0.1, 0.7, 0.2]]),
           onp.array([1e-170, -3e-171]))


def vjp(v, k, g):
    r = np.take_along_axis(v, np.argmax(k, axis=1)[:, None], axis=1)[:, 0]
    target = r - g
    nearest = np.argmin((v - target[:, None]) ** 2, axis=1)
    hit = np.arange(3) == nearest[:, None]
    return g[:, None] * k, np.sqrt(g**2)[:, None] * np.where(hit, -1.0, 1.0)
