# expect: pass
# Correct, one row at a time in a Python loop, following the four steps literally.
import jax.numpy as np


def vjp(v, k, g):
    dv_rows, dk_rows = [], []
    for b in range(2):
        r = v[b, np.argmax(k[b])]
        target = r - g[b]
        j = np.argmin((v[b] - target) ** 2)
        dv_rows.append(g[b] * k[b])
        dk_rows.append(np.where(np.arange(3) == j, -np.abs(g[b]), np.abs(g[b])))
    return np.stack(dv_rows), np.stack(dk_rows)
