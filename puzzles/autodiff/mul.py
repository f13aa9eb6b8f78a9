r"""Puzzle `mul` (autodiff chapter): Elementwise product.

    $f(x, y)_o = x_o \cdot y_o$. Return the pair $(\partial f / \partial x, \partial f / \partial y)$.

    Fill in `jac` so that it returns the full Jacobian of `mul`, exactly what
    `jax.jacfwd(mul, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check mul`; stuck? `jacpuzzles hint mul`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def mul(x: Shaped[Array, "10"], y: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return x * y


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"], y: Shaped[Array, "10"]) -> tuple[Shaped[Array, "10 10"], Shaped[Array, "10 10"]]:
    raise NotImplementedError  # replace with your Jacobian
