r"""Puzzle `tensor_lookup_2d_corrected` (indexing chapter): 2-D soft lookup (corrected).

    The weighted mix a soft 2-D lookup should return (`jacpuzzles docs errata`): with the mask
    $M_{ij} = x_i \, y_j$,

    $f(A, x, y)_c = \sum_{i, j} x_i \, y_j \, A_{ijc}$.

    For one-hot $x$ and $y$ it is exactly the selected cell, whatever its sign; for soft ones every
    cell contributes in proportion to its weight. $A$ is drawn from $[-5, 5]$.

    Return $(\partial f / \partial A, \partial f / \partial x, \partial f / \partial y)$, of shapes
    (2, 3, 3, 2), (2, 3) and (2, 3).

    Fill in `jac` so that it returns the full Jacobian of `tensor_lookup_2d_corrected`, exactly what
    `jax.jacfwd(tensor_lookup_2d_corrected, argnums=(0, 1, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check tensor_lookup_2d_corrected`; stuck? `jacpuzzles hint tensor_lookup_2d_corrected`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def tensor_lookup_2d_corrected(arr: Shaped[Array, "3 3 2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]) -> Shaped[Array, "2"]:
    mask = np.outer(x_index, y_index)
    return np.sum(mask[:, :, None] * arr, axis=(0, 1))


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "3 3 2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]) -> tuple[Shaped[Array, "2 3 3 2"], Shaped[Array, "2 3"], Shaped[Array, "2 3"]]:
    raise NotImplementedError  # replace with your Jacobian
