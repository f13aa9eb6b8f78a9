r"""Puzzle `assign_index` (indexing chapter): Assign a row.

    Writing a row without assignment: row $k$ of $A \in \mathbb{R}^{3 \times 3}$ is replaced by
    $e \in \mathbb{R}^3$ through a mask, for an integer $k \in \{0, 1, 2\}$:

    $f(A, k, e)_{ab} = (1 - m_a) \, A_{ab} + m_a \, e_b$, where $m_a = [a = k]$ (row $k$ of the identity).

    For $A$ with rows $(1, 1, 1)$, $(2, 2, 2)$, $(3, 3, 3)$, $k = 1$ and $e = (4, 4, 4)$, the middle
    row becomes $(4, 4, 4)$.

    $k$ is an integer and gets no Jacobian: return $(\partial f / \partial A, \partial f / \partial e)$,
    of shapes (3, 3, 3, 3) and (3, 3, 3).

    Fill in `jac` so that it returns the full Jacobian of `assign_index`, exactly what
    `jax.jacfwd(assign_index, argnums=(0, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check assign_index`; stuck? `jacpuzzles hint assign_index`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def assign_index(arr: Shaped[Array, "3 3"], index: Int[Array, ""], element: Shaped[Array, "3"]) -> Shaped[Array, "3 3"]:
    row = np.eye(arr.shape[0])[index][:, None]  # (3, 1): 1 on the row to overwrite
    return arr * (1 - row) + np.tile(element, (arr.shape[0], 1)) * row


# ---- your answer: everything below this line is yours to edit ----
As = np.arange(3)[:, None, None, None]
Bs = np.arange(3)[None, :, None, None]
Cs = np.arange(3)[None, None, :, None]
Ds = np.arange(3)


def jac(
    arr: Shaped[Array, "3 3"], index: Int[Array, ""], element: Shaped[Array, "3"]
) -> tuple[Shaped[Array, "3 3 3 3"], Shaped[Array, "3 3 3"]]:
    d_arr = (As == Cs) & (Bs == Ds) & (As != index)
    d_element = (As[..., 0] == index) & (Bs[..., 0] == Ds)
    return 1.0 * d_arr, 1.0 * d_element
