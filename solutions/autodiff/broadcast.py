r"""Puzzle `broadcast` (autodiff chapter): Broadcast multiply.

    $f(X, y)_{ab} = X_{ab} \, y_b$ for $X \in \mathbb{R}^{4 \times 4}$ and $y \in \mathbb{R}^{4}$
    (`X * y[None, :]`: y scales each column).

    Return the pair $(\partial f / \partial X, \partial f / \partial y)$, of shapes (4, 4, 4, 4) and (4, 4, 4).

    Fill in `jac` so that it returns the full Jacobian of `broadcast`, exactly what
    `jax.jacfwd(broadcast, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check broadcast`; stuck? `jacpuzzles hint broadcast`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def broadcast(x: Shaped[Array, "4 4"], y: Shaped[Array, "4"]) -> Shaped[Array, "4 4"]:
    return x * y[None, :]


# ---- your answer: everything below this line is yours to edit ----
A, B, C, D = np.ix_(*[np.arange(4)] * 4)  # output row, output column, input row, input column
Bs = np.arange(4)[:, None]  # output column, for d/dy
Ks = np.arange(4)  # index of y


def jac(x: Shaped[Array, "4 4"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "4 4 4 4"], Shaped[Array, "4 4 4"]]:
    # y is indexed by the output column B, not the row.
    return ((A == C) & (B == D)) * y[B], (Bs == Ks) * x[:, :, None]
