r"""Puzzle `repeat` (autodiff chapter): Repeat.

    $f(x_0) = [x_0, x_0, \ldots, x_0]$, ten copies.

    Fill in `jac` so that it returns the full Jacobian of `repeat`, exactly what
    `jax.jacfwd(repeat, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check repeat`; stuck? `jacpuzzles hint repeat`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def repeat(x: Shaped[Array, "1"]) -> Shaped[Array, "10"]:
    return x + np.zeros(10)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "1"]) -> Shaped[Array, "10 1"]:
    raise NotImplementedError  # replace with your Jacobian
