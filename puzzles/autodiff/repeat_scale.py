r"""Puzzle `repeat_scale` (autodiff chapter): Repeat and scale.

    $f(x_0)_o = x_0 \cdot o / N$ for $o = 0, \ldots, N - 1$ with $N = 10$.

    Fill in `jac` so that it returns the full Jacobian of `repeat_scale`, exactly what
    `jax.jacfwd(repeat_scale, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check repeat_scale`; stuck? `jacpuzzles hint repeat_scale`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def repeat_scale(x: Shaped[Array, "1"]) -> Shaped[Array, "10"]:
    return x * np.arange(10) / 10


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "1"]) -> Shaped[Array, "10 1"]:
    raise NotImplementedError  # replace with your Jacobian
