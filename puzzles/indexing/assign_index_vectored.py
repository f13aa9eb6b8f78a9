r"""Puzzle `assign_index_vectored` (indexing chapter): Soft row assignment.

    The soft version of `assign_index`: a mask $m \in [0, 1]^3$ (`index`) says how much of each row
    to overwrite with $e \in \mathbb{R}^3$:

    $f(A, m, e)_{ab} = (1 - m_a) \, A_{ab} + m_a \, e_b$.

    A one-hot $m$ writes one row, as `assign_index` does; $m = (0.5, 0.5, 0)$ blends $e$ halfway into
    the first two rows. The checker draws both kinds.

    Return $(\partial f / \partial A, \partial f / \partial m, \partial f / \partial e)$, of shapes
    (3, 3, 3, 3), (3, 3, 3) and (3, 3, 3).

    Fill in `jac` so that it returns the full Jacobian of `assign_index_vectored`, exactly what
    `jax.jacfwd(assign_index_vectored, argnums=(0, 1, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check assign_index_vectored`; stuck? `jacpuzzles hint assign_index_vectored`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def assign_index_vectored(arr: Shaped[Array, "3 3"], index: Shaped[Array, "3"], element: Shaped[Array, "3"]) -> Shaped[Array, "3 3"]:
    row = index[:, None]  # (3, 1): how much of each row to overwrite
    return arr * (1 - row) + np.tile(element, (arr.shape[0], 1)) * row


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "3 3"], index: Shaped[Array, "3"], element: Shaped[Array, "3"]) -> tuple[Shaped[Array, "3 3 3 3"], Shaped[Array, "3 3 3"], Shaped[Array, "3 3 3"]]:
    raise NotImplementedError  # replace with your Jacobian
