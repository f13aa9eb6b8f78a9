def jac(x: Shaped[Array, "5"]) -> Shaped[Array, "5 5"]:
    z = x / {{temp}}
    e = np.exp(z - np.max(z))  # shifted so that the largest is exp(0): nothing overflows
    s = e / np.sum(e)
    # d s_o / d x_i = s_o ([o = i] - s_i) / T: the diagonal, minus the normaliser's coupling.
    return (np.diag(s) - s[:, None] * s[None, :]) / {{temp}}


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
