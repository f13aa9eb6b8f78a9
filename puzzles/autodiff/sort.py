r"""Puzzle `sort` (autodiff chapter): Sort.

    $f(x) = \operatorname{sort}(x)$, ascending: output $o$ is the $o$-th smallest entry of $x$.

    Sort has no derivative where two entries tie; the checker never samples ties.

    Fill in `jac` so that it returns the full Jacobian of `sort`, exactly what
    `jax.jacfwd(sort, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check sort`; stuck? `jacpuzzles hint sort`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def sort(x: Shaped[Array, "10"]) -> Shaped[Array, "10"]:
    return np.sort(x)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:
    raise NotImplementedError  # replace with your Jacobian
