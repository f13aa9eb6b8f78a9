r"""Puzzle `superposition_lookup_vectored_1d` (indexing chapter): Superposition lookup of a vector.

    The same soft lookup, of a vector $a \in \mathbb{R}^5$ with a probability vector
    $p \in \mathbb{R}^5$. The notebook's function first makes a 1-D array a column of shape
    (5, 1), so the result keeps a length-1 axis:

    $f(a, p) = \left[\sum_{i=0}^{4} p_i \, a_i\right]$, the one-entry vector $[p \cdot a]$.

    For $a = (1, 2, 3, 5, 4)$ and $p = (0, 0.1, 0.8, 0, 0.1)$, $f = [3]$ (3.0000002 in float32).

    Return the pair $(\partial f / \partial a, \partial f / \partial p)$, each of shape (1, 5).

    Fill in `jac` so that it returns the full Jacobian of `superposition_lookup_vectored_1d`, exactly what
    `jax.jacfwd(superposition_lookup_vectored_1d, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check superposition_lookup_vectored_1d`; stuck? `jacpuzzles hint superposition_lookup_vectored_1d`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def superposition_lookup_vectored_1d(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> Shaped[Array, "1"]:
    # As in the notebook: a 1-D arr becomes a column (5, 1), and the sum keeps its length-1 axis.
    return np.sum(arr[:, None] * indices[:, None], axis=0)


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "1 5"], Shaped[Array, "1 5"]]:
    raise NotImplementedError  # replace with your Jacobian
