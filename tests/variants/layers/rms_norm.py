def jac(x: Shaped[Array, "{{n}}"]) -> Shaped[Array, "{{n}} {{n}}"]:
    r = np.sqrt(np.mean(x**2) + 1e-5)
    # d r / d x_i = x_i / (N r): the quotient rule gives the identity over r minus a rank-one term.
    return np.eye({{n}}) / r - x[:, None] * x[None, :] / ({{n}} * r**3)
