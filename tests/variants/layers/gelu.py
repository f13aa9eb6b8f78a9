def jac(x: Shaped[Array, "6"]) -> Shaped[Array, "6 6"]:
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))
    # The product rule on x (1 + tanh u) / 2, with tanh' = 1 - tanh^2 and the chain rule through u.
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x**2)
    return np.diag(slope)


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
