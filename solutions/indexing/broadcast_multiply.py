r"""Puzzle `broadcast_multiply` (indexing chapter): Broadcast multiply, trailing axes.

    $f(X, Y)_{abc} = X_{abc} \, Y_{ab}$ for $X \in \mathbb{R}^{3 \times 3 \times 2}$ and
    $Y \in \mathbb{R}^{3 \times 3}$.

    The notebook broadcasts the lower-rank argument by padding its shape with 1s at the **end**,
    (3, 3) to (3, 3, 1), so $Y_{ab}$ scales both channels of $X$ at $(a, b)$. NumPy's broadcasting
    pads at the front instead, (1, 3, 3), which would not even fit here.

    Return the pair $(\partial f / \partial X, \partial f / \partial Y)$, of shapes
    (3, 3, 2, 3, 3, 2) and (3, 3, 2, 3, 3).

    Fill in `jac` so that it returns the full Jacobian of `broadcast_multiply`, exactly what
    `jax.jacfwd(broadcast_multiply, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check broadcast_multiply`; stuck? `jacpuzzles hint broadcast_multiply`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def broadcast_multiply(x: Shaped[Array, "3 3 2"], y: Shaped[Array, "3 3"]) -> Shaped[Array, "3 3 2"]:
    # The lower-rank shape is padded with 1s at the end: (3, 3) -> (3, 3, 1).
    return x * y.reshape(y.shape + (1,) * (x.ndim - y.ndim))


# ---- your answer: everything below this line is yours to edit ----
A3 = np.arange(3)
C2 = np.arange(2)
# The identity on (3, 3): [a == d][b == e], axes (a, b, d, e).
SAME_CELL = (A3[:, None, None, None] == A3[None, None, :, None]) & (A3[None, :, None, None] == A3[None, None, None, :])


def jac(x: Shaped[Array, "3 3 2"], y: Shaped[Array, "3 3"]) -> tuple[Shaped[Array, "3 3 2 3 3 2"], Shaped[Array, "3 3 2 3 3"]]:
    same_channel = C2[:, None] == C2[None, :]  # [c == f]
    d_x = SAME_CELL[:, :, None, :, :, None] * same_channel[None, None, :, None, None, :] * y[:, :, None, None, None, None]
    d_y = SAME_CELL[:, :, None, :, :] * x[:, :, :, None, None]
    return d_x, d_y
