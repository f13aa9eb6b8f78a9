r"""Puzzle `emean` (autodiff chapter): Elementwise mean.

    $f(x, y)_o = (x_o + y_o) / 2$: two arguments, so your answer is a **pair** of Jacobians,
    $(\partial f / \partial x, \partial f / \partial y)$, each of shape (10, 10).

    Fill in `jac` so that it returns the full Jacobian of `emean`, exactly what
    `jax.jacfwd(emean, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check emean`; stuck? `jacpuzzles hint emean`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def emean(x: Shaped[Array, "10"], y: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return (x + y) / 2


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"], y: Shaped[Array, "10"]) -> tuple[Shaped[Array, "10 10"], Shaped[Array, "10 10"]]:
    raise NotImplementedError  # replace with your Jacobian
