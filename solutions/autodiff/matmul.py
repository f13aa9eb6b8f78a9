r"""Puzzle `matmul` (autodiff chapter): Matrix multiply.

    $x, y \in \mathbb{R}^{4}$ are read as $2 \times 2$ matrices $X$ and $Y$ (row-major), and
    $f(x, y) = (X Y)$ flattened back to 4 entries: $f_{2a + b} = \sum_{k} X_{ak} Y_{kb}$.

    Return the pair $(\partial f / \partial x, \partial f / \partial y)$, each of shape (4, 4).

    Fill in `jac` so that it returns the full Jacobian of `matmul`, exactly what
    `jax.jacfwd(matmul, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check matmul`; stuck? `jacpuzzles hint matmul`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def matmul(x: Shaped[Array, "4"], y: Shaped[Array, "4"]) -> Shaped[Array, "4"]:
    return (x.reshape(2, 2) @ y.reshape(2, 2)).reshape(4)


# ---- your answer: everything below this line is yours to edit ----
Is = np.arange(4)
Os = np.arange(4)[:, None]


def jac(x: Shaped[Array, "4"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "4 4"], Shaped[Array, "4 4"]]:
    # Output o is (a, b) = (o // 2, o % 2); input i is (i // 2, i % 2).
    dx = (Os // 2 == Is // 2) * y.reshape(2, 2)[Is % 2, Os % 2]
    dy = (Os % 2 == Is % 2) * x.reshape(2, 2)[Os // 2, Is // 2]
    return dx, dy
