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
Is = np.arange(10)
Os = np.arange(10)[:, None]


def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "1 10"]:
    # Row i of the matrix is x with x_i replaced by 1: its product is d f / d x_i, even at zeros.
    return np.prod(np.where(Is == Os, 1, x), axis=1)[None, :]
