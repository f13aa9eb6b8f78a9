r"""Puzzle `superposition_lookup_vectored` (indexing chapter): Superposition lookup.

    A soft lookup: instead of one index, a probability vector $p \in \mathbb{R}^5$ (`indices`:
    $p_i > 0$, $\sum_i p_i = 1$) weighs the rows of $A \in \mathbb{R}^{5 \times 5}$ (`arr`):

    $f(A, p)_o = \sum_{i=0}^{4} p_i \, A_{io}$, that is $f = p^\top A$,

    the mix of rows an attention mechanism computes. A one-hot $p$ reads one row exactly; the
    checker draws those too. With $p = (0.5, 0.5, 0, 0, 0)$, $f$ is the mean of the first two rows.

    Return the pair $(\partial f / \partial A, \partial f / \partial p)$, of shapes (5, 5, 5) and (5, 5).

    Fill in `jac` so that it returns the full Jacobian of `superposition_lookup_vectored`, exactly what
    `jax.jacfwd(superposition_lookup_vectored, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check superposition_lookup_vectored`; stuck? `jacpuzzles hint superposition_lookup_vectored`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def superposition_lookup_vectored(arr: Shaped[Array, "5 5"], indices: Shaped[Array, "5"]) -> Shaped[Array, "5"]:
    return np.sum(arr * indices[:, None], axis=0)


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5 5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "5 5 5"], Shaped[Array, "5 5"]]:
    raise NotImplementedError  # replace with your Jacobian
