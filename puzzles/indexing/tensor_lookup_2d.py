r"""Puzzle `tensor_lookup_2d` (indexing chapter): 2-D lookup by a maximum (as in the notebook).

    A 2-D soft lookup written as the notebook writes it, with a mask and a maximum. Two
    probability vectors $x, y \in \mathbb{R}^3$ (`x_index`, `y_index`) make the mask
    $M_{ij} = x_i \, y_j$, their outer product; it scales every cell of $A \in \mathbb{R}^{3 \times 3 \times 2}$,
    and per channel $c$ the largest masked value is kept:

    $f(A, x, y)_c = \max_{i, j} \; x_i \, y_j \, A_{ijc}$.

    For $x$ one-hot at 1 and $y$ one-hot at 2 this returns the cell $A_{1,2}$: $(2, 222)$ in the
    notebook's example. Two quirks are kept (`jacpuzzles docs errata`; `tensor_lookup_2d_corrected` is
    the weighted sum). For soft $x$ and $y$ the result is one scaled cell, not a weighted mix, and each
    channel may take a different cell. And with one-hot $x$ and $y$ a cell with negative values is
    never returned: the max picks one of the zeros the mask leaves elsewhere. So the checker draws
    $A$ from $[0.5, 5]$, and
    keeps the largest masked value of each channel apart from the runner-up, where $f$ is
    differentiable.

    Return $(\partial f / \partial A, \partial f / \partial x, \partial f / \partial y)$, of shapes
    (2, 3, 3, 2), (2, 3) and (2, 3).

    Fill in `jac` so that it returns the full Jacobian of `tensor_lookup_2d`, exactly what
    `jax.jacfwd(tensor_lookup_2d, argnums=(0, 1, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check tensor_lookup_2d`; stuck? `jacpuzzles hint tensor_lookup_2d`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def tensor_lookup_2d(arr: Shaped[Array, "3 3 2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]) -> Shaped[Array, "2"]:
    mask = np.outer(x_index, y_index)
    return np.max(mask[:, :, None] * arr, axis=(0, 1))


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "3 3 2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]) -> tuple[Shaped[Array, "2 3 3 2"], Shaped[Array, "2 3"], Shaped[Array, "2 3"]]:
    raise NotImplementedError  # replace with your Jacobian
