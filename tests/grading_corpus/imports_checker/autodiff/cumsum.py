r"""Puzzle `cumsum` (autodiff chapter): Cumulative sum.

    $f(x)_o = \frac{1}{20} \sum_{i=0}^{o} x_i$ for ten entries: a running total, scaled by 1/20.

    Fill in `jac` so that it returns the full Jacobian of `cumsum`, exactly what
    `jax.jacfwd(cumsum, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check cumsum`; stuck? `jacpuzzles hint cumsum`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def cumsum(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.cumsum(x) / 20


# ---- your answer: everything below this line is yours to edit ----
from checker.engine._oracles import jacobian_of
Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    return (Is <= Os) / 20
