r"""Puzzle `transpose` (autodiff chapter): Transpose.

    $f(X) = X^\top$ for a $4 \times 4$ matrix: $f(X)_{ab} = X_{ba}$. Jacobian shape (4, 4, 4, 4).

    Fill in `jac` so that it returns the full Jacobian of `transpose`, exactly what
    `jax.jacfwd(transpose, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check transpose`; stuck? `jacpuzzles hint transpose`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def transpose(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4 4"]:
    return x.T


# ---- your answer: everything below this line is yours to edit ----
A, B, C, D = np.ix_(*[np.arange(4)] * 4)  # output row, output column, input row, input column


def jac(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4 4 4 4"]:
    return 1.0 * ((A == D) & (B == C))
