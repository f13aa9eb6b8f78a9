r"""Puzzle `relu` (autodiff chapter): ReLU.

    $f(x)_o = \operatorname{relu}(x_o)$, where $\operatorname{relu}(v) = v$ for $v > 0$ and $0$ otherwise.

    relu has no derivative at exactly 0; the checker never samples an entry there.

    Fill in `jac` so that it returns the full Jacobian of `relu`, exactly what
    `jax.jacfwd(relu, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check relu`; stuck? `jacpuzzles hint relu`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def relu(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.where(x > 0, x, 0.0)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    raise NotImplementedError  # replace with your Jacobian
