Is = np.arange(16)
Os = np.arange(16)[:, None]
Ks = np.arange(4)


def jac(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "16 16"], Shaped[Array, "16 4"]]:
    # Output (r, c) = (o // 4, o % 4) meets input (s, t) through kernel tap (p, q) = (r - s, c - t).
    p, q = Os // 4 - Is // 4, Os % 4 - Is % 4
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, y[2 * np.clip(p, 0, 1) + np.clip(q, 0, 1)], 0) / 4
    # d f_rc / d K_pq = X[r - p, c - q]: pad the image with a zero row on top and a zero column on the left.
    padded = np.pad(x.reshape(4, 4), ((1, 0), (1, 0)))
    dy = padded[Os // 4 - Ks // 2 + 1, Os % 4 - Ks % 2 + 1] / 4
    return dx, dy


_unscaled = jac


def jac(*args):  # the variant's scale multiplies every block
    return jax.tree_util.tree_map(lambda block: {{scale}} * (1.0 * block), _unscaled(*args))
