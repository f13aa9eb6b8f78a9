r"""Puzzle `prod` (autodiff chapter): Product.

    $f(x_0, \ldots, x_{N-1}) = [x_0 x_1 \cdots x_{N-1}]$ with $N = 10$.

    Your answer must hold for **every** input, including inputs with an entry equal to zero.

    Fill in `jac` so that it returns the full Jacobian of `prod`, exactly what
    `jax.jacfwd(prod, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check prod`; stuck? `jacpuzzles hint prod`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def prod(x: Shaped[Array, "10"]) -> Shaped[Array, "1"]:
    return np.prod(x, keepdims=True)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "1 10"]:
    raise NotImplementedError  # replace with your Jacobian
