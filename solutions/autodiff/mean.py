r"""Puzzle `mean` (autodiff chapter): Mean.

    $f(x_0, \ldots, x_{N-1}) = [(x_0 + x_1 + \cdots + x_{N-1}) / N]$ with $N = 10$.

    One output, ten inputs: the Jacobian is a single row.

    Fill in `jac` so that it returns the full Jacobian of `mean`, exactly what
    `jax.jacfwd(mean, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check mean`; stuck? `jacpuzzles hint mean`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def mean(x: Shaped[Array, "10"]) -> Shaped[Array, "1"]:
    return np.mean(x, axis=0, keepdims=True)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "1 10"]:
    return np.ones((1, 10)) / 10
