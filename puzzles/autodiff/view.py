r"""Puzzle `view` (autodiff chapter): View.

    $f(X) = X$ for a $4 \times 4$ matrix. Input and output are both 2-D, so the Jacobian is 4-D:
    $J_{a b c d} = \partial f(X)_{a b} / \partial X_{c d}$, output axes first, shape (4, 4, 4, 4).

    Fill in `jac` so that it returns the full Jacobian of `view`, exactly what
    `jax.jacfwd(view, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check view`; stuck? `jacpuzzles hint view`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def view(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4 4"]:
    return x[:, :]


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4 4 4 4"]:
    raise NotImplementedError  # replace with your Jacobian
