r"""Puzzle `neg` (autodiff chapter): Negation.

    $f(x)_o = -x_o$ for ten entries.

    Fill in `jac` so that it returns the full Jacobian of `neg`, exactly what
    `jax.jacfwd(neg, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check neg`; stuck? `jacpuzzles hint neg`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def neg(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return -x


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    raise NotImplementedError  # replace with your Jacobian
