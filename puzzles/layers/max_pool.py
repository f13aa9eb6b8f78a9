r"""Puzzle `max_pool` (layers chapter): 1-D max-pool (width 2, stride 2).

    Max-pooling of $x \in \mathbb{R}^{8}$ with windows of width 2 every 2 entries ("valid": no padding),
    giving 4 outputs:

    $f(x)_o = \max_{0 \le k < 2} x_{2 o + k}$ for $o = 0, \ldots, 3$.

    Max has no derivative where two entries of a window tie; the checker never draws ties.

    Fill in `jac` so that it returns the full Jacobian of `max_pool`, exactly what
    `jax.jacfwd(max_pool, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check max_pool`; stuck? `jacpuzzles hint max_pool`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def max_pool(x: Shaped[Array, "8"]) -> Shaped[Array, "4"]:
    windows = 2 * np.arange(4)[:, None] + np.arange(2)  # the inputs of each output
    return np.max(x[windows], axis=1)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "8"]) -> Shaped[Array, "4 8"]:
    raise NotImplementedError  # replace with your Jacobian
