# expect: fail
# mistake: x and w cast to float32 ("plenty for a linear layer"): off by at most 1.04 times the contract where float32 has normal numbers, and 0 below its range (1.2e-38)
import jax.numpy as np

# Inside the region layers.toml declares for x and w (`magnitudes = [1e-40]`: 1e-40 times the domain).
WITNESS = {
    "x": [-1.91951322e-41, 9.18041763e-41, 8.52100363e-41, -4.2e-41, 6.1e-41, -7.7e-41, 3.3e-41],
    "w": [1.13380424e-41, -8.41732966e-41, -6.46270493e-42],
}
Is = np.arange(7)
Os = np.arange(4)[:, None]
windows = 2 * Os + np.arange(3)


def jac(x, w):
    w32 = w.astype(np.float32)
    k = Is + 1 - 2 * Os
    dx = np.where((k >= 0) & (k <= 2), w32[np.clip(k, 0, 2)], 0.0).astype(np.float64)
    dw = np.pad(x, 1).astype(np.float32)[windows].astype(np.float64)
    return dx, dw
