def jac(x: Shaped[Array, "{{n}}"]) -> Shaped[Array, "{{n}} {{n}}"]:
    centred = x - np.mean(x)
    sigma = np.sqrt(np.mean(centred**2) + 1e-5)
    y = centred / sigma
    # [o = i], minus 1/N through the mean, minus y_o y_i / N through sigma; all over sigma.
    return (np.eye({{n}}) - 1 / {{n}} - y[:, None] * y[None, :] / {{n}}) / sigma


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
