Is = np.arange(3)


def vjp(
    v: Shaped[Array, "2 3"], k: Shaped[Array, "2 3"], g: Shaped[Array, "2"]
) -> tuple[Shaped[Array, "2 3"], Shaped[Array, "2 3"]]:
    r = v[np.arange(2), np.argmax(k, axis=1)]  # the forward result
    target = r - g  # where one descent step of size 1 would move r
    nearest = np.argmin((v - target[:, None]) ** 2, axis=1)
    onehot = Is == nearest[:, None]
    dv = g[:, None] * k
    dk = {{push}} * np.abs(g)[:, None] * (1 - 2 * onehot)
    return dv, dk
