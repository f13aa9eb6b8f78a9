r"""Puzzle `residual_lookup` (indexing chapter): Residual lookup.

    Two outputs: the entry at the rounded index, and what the rounding threw away. With
    $i = \operatorname{round}(x)$ (half to even) for $x \in [0, 4]$,

    $f(a, x) = (a_i, \; x - i)$.

    The result is always an entry of $a$, never a blend; the residue carries the rest of the
    index, with derivative 1. For $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, $i = 2$ and $f = (3, -0.5)$.
    Rounding counts as flat (derivative 0), as in JAX, even at a half-integer.

    Return one pair per output, in order:
    $((\partial a_i / \partial a, \partial a_i / \partial x), (\partial (x - i) / \partial a, \partial (x - i) / \partial x))$,
    of shapes ((5,), ()) and ((5,), ()).

    Fill in `jac` so that it returns the full Jacobian of `residual_lookup`, exactly what
    `jax.jacfwd(residual_lookup, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check residual_lookup`; stuck? `jacpuzzles hint residual_lookup`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def residual_lookup(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, ""], Shaped[Array, ""]]:
    i = np.round(index)
    return arr[i.astype(np.int32)], index - i


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[tuple[Shaped[Array, "5"], Shaped[Array, ""]], tuple[Shaped[Array, "5"], Shaped[Array, ""]]]:
    raise NotImplementedError  # replace with your Jacobian
