def jac(x: Shaped[Array, "{{n}}"]) -> Shaped[Array, "{{n}} {{n}}"]:
    r = np.sqrt(np.mean(x**2) + 1e-5)
    # d r / d x_i = x_i / (N r): the quotient rule gives the identity over r minus a rank-one term.
    return np.eye({{n}}) / r - x[:, None] * x[None, :] / ({{n}} * r**3)


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
