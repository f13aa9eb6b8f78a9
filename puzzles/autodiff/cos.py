r"""Puzzle `cos` (autodiff chapter): Cosine.

    Warm-up. $f(x_0) = [\cos(x_0)]$.

    Fill in `jac` so that it returns the full Jacobian of `cos`, exactly what
    `jax.jacfwd(cos, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check cos`; stuck? `jacpuzzles hint cos`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def cos(x: Shaped[Array, "1"]) -> Shaped[Array, "1"]:
    return np.cos(x)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "1"]) -> Shaped[Array, "1 1"]:
    raise NotImplementedError  # replace with your Jacobian
