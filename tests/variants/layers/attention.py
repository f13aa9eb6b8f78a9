I = np.arange(3)[:, None, None, None]  # output position i
A = np.arange(2)[:, None, None]  # output feature a
C = np.arange(3)[:, None]  # input position c
D = np.arange(2)  # input feature d
ALLOWED = {{mask.code}}


def jac(
    q: Shaped[Array, "3 2"], k: Shaped[Array, "3 2"], v: Shaped[Array, "3 2"]
) -> tuple[Shaped[Array, "3 2 3 2"], Shaped[Array, "3 2 3 2"], Shaped[Array, "3 2 3 2"]]:
    scores = np.where(ALLOWED, q @ k.T / np.sqrt(2.0), -np.inf)
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)  # P[i, j], 0 where masked
    out = p @ v
    # d f[i, a] / d S[i, j] = P[i, j] (V[j, a] - f[i, a]): the softmax's coupling. Indexed (i, a, j).
    g = p[:, None, :] * (v.T[None, :, :] - out[:, :, None])
    dq = (I == C) * (g @ k)[:, :, None, :] / np.sqrt(2.0)  # S[i, j] moves with Q[i, d] by K[j, d] / sqrt(2)
    dk = g[:, :, :, None] * q[:, None, None, :] / np.sqrt(2.0)  # S[i, c] moves with K[c, d] by Q[i, d] / sqrt(2)
    dv = p[:, None, :, None] * (A == D)  # f is linear in V
    return dq, dk, dv


_unscaled = jac


def jac(*args):  # the variant's gain multiplies every block
    return jax.tree_util.tree_map(lambda block: {{gain}} * (1.0 * block), _unscaled(*args))
