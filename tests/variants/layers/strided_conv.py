Is = np.arange(7)
Os = np.arange({{layout.out}})[:, None]
windows = {{layout.stride}} * Os + np.arange(3)  # the padded inputs of each output, as in f


def jac(x: Shaped[Array, "7"], w: Shaped[Array, "3"]) -> tuple[Shaped[Array, "{{layout.out}} 7"], Shaped[Array, "{{layout.out}} 3"]]:
    k = Is + {{layout.pad}} - {{layout.stride}} * Os  # the tap through which input i reaches output o
    dx = np.where((k >= 0) & (k <= 2), w[np.clip(k, 0, 2)], 0.0)
    return dx, np.pad(x, {{layout.pad}})[windows]  # zero where the window reads padding


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
