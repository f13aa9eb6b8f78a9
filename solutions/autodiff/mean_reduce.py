r"""Puzzle `mean_reduce` (autodiff chapter): Mean over an axis.

    $f(X)_b = \frac{1}{4} \sum_{a=0}^{3} X_{ab}$: the mean of each column of a $4 \times 4$ matrix
    (`X.mean(axis=0)`). Jacobian shape (4, 4, 4).

    Fill in `jac` so that it returns the full Jacobian of `mean_reduce`, exactly what
    `jax.jacfwd(mean_reduce, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check mean_reduce`; stuck? `jacpuzzles hint mean_reduce`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def mean_reduce(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4"]:
    return np.mean(x, axis=0)


# ---- your answer: everything below this line is yours to edit ----
Os = np.arange(4)[:, None, None]
Ds = np.arange(4)[None, None, :]


def jac(x: Shaped[Array, "4 4"]) -> Shaped[Array, "4 4 4"]:
    return np.broadcast_to((Os == Ds) / 4, (4, 4, 4))
