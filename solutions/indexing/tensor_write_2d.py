r"""Puzzle `tensor_write_2d` (indexing chapter): 2-D soft write.

    The 2-D soft write: the mask $M_{ij} = x_i \, y_j$ from two probability vectors
    $x, y \in \mathbb{R}^3$ blends the channel vector $u \in \mathbb{R}^2$ (`element`) into
    $A \in \mathbb{R}^{3 \times 3 \times 2}$:

    $f(A, u, x, y)_{ijc} = (1 - x_i y_j) \, A_{ijc} + x_i y_j \, u_c$.

    For $x$ one-hot at 1 and $y$ one-hot at 2, cell $(1, 2)$ becomes $u$ and every other cell is
    unchanged; soft $x$ and $y$ move every cell part of the way towards $u$.

    Return $(\partial f / \partial A, \partial f / \partial u, \partial f / \partial x, \partial f / \partial y)$,
    of shapes (3, 3, 2, 3, 3, 2), (3, 3, 2, 2), (3, 3, 2, 3) and (3, 3, 2, 3).

    Fill in `jac` so that it returns the full Jacobian of `tensor_write_2d`, exactly what
    `jax.jacfwd(tensor_write_2d, argnums=(0, 1, 2, 3))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check tensor_write_2d`; stuck? `jacpuzzles hint tensor_write_2d`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def tensor_write_2d(arr: Shaped[Array, "3 3 2"], element: Shaped[Array, "2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]) -> Shaped[Array, "3 3 2"]:
    mask = np.outer(x_index, y_index)[:, :, None]
    return (1 - mask) * arr + mask * element[None, None, :]


# ---- your answer: everything below this line is yours to edit ----
I3 = np.arange(3)
C2 = np.arange(2)
# [i == k][j == l][c == d] on axes (i, j, c, k, l, d).
SAME = (
    (I3[:, None, None, None, None, None] == I3[None, None, None, :, None, None])
    & (I3[None, :, None, None, None, None] == I3[None, None, None, None, :, None])
    & (C2[None, None, :, None, None, None] == C2)
)


def jac(
    arr: Shaped[Array, "3 3 2"], element: Shaped[Array, "2"], x_index: Shaped[Array, "3"], y_index: Shaped[Array, "3"]
) -> tuple[Shaped[Array, "3 3 2 3 3 2"], Shaped[Array, "3 3 2 2"], Shaped[Array, "3 3 2 3"], Shaped[Array, "3 3 2 3"]]:
    # f_ijc = (1 - x_i y_j) A_ijc + x_i y_j u_c.
    mask = np.outer(x_index, y_index)[:, :, None]  # (3, 3, 1)
    pull = element[None, None, :] - arr  # d f_ijc / d mask_ij
    d_arr = SAME * (1 - mask)[..., None, None, None]
    d_element = mask[..., None] * (C2[:, None] == C2)
    d_x = (I3[:, None, None, None] == I3) * (y_index[None, :, None] * pull)[..., None]
    d_y = (I3[None, :, None, None] == I3) * (x_index[:, None, None] * pull)[..., None]
    return d_arr, d_element, d_x, d_y
