r"""Puzzle `index` (autodiff chapter): Index.

    $f(x_0, \ldots, x_{24}) = [x_{10}, x_{11}, \ldots, x_{24}]$: the slice `x[10:]`.

    Fill in `jac` so that it returns the full Jacobian of `index`, exactly what
    `jax.jacfwd(index, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check index`; stuck? `jacpuzzles hint index`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def index(x: Shaped[Array, "25"]) -> Shaped[Array, "15"]:
    return x[10:]


# ---- your answer: everything below this line is yours to edit ----
Is = np.arange(25)
Os = np.arange(15)[:, None]


def jac(x: Shaped[Array, "25"]) -> Shaped[Array, "15 25"]:
    return 1.0 * (Is == Os + 10)
