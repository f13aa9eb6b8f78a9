r"""Puzzle `id` (autodiff chapter): Id (scaled).

    Warm-up. $f(x_0) = [2 x_0]$.

    The input has one entry and so does the output, so the Jacobian is a $1 \times 1$ matrix.

    Fill in `jac` so that it returns the full Jacobian of `id`, exactly what
    `jax.jacfwd(id, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check id`; stuck? `jacpuzzles hint id`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def id(x: Shaped[Array, "1"]) -> Shaped[Array, "1"]:
    return 2 * x


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "1"]) -> Shaped[Array, "1 1"]:
    raise NotImplementedError  # replace with your Jacobian
