r"""Puzzle `reshape` (autodiff chapter): Reshape.

    $f(X) = $ `X.reshape(16)`: row-major flattening of a $4 \times 4$ matrix, so
    $f(X)_o = X_{\lfloor o / 4 \rfloor,\, o \bmod 4}$. Jacobian shape (16, 4, 4).

    Fill in `jac` so that it returns the full Jacobian of `reshape`, exactly what
    `jax.jacfwd(reshape, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check reshape`; stuck? `jacpuzzles hint reshape`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def reshape(x: Shaped[Array, "4 4"]) -> Shaped[Array, "16"]:
    return x.reshape(16)


# ---- your answer: everything below this line is yours to edit ----
Os = np.arange(16)[:, None, None]
R = np.arange(4)[None, :, None]
C = np.arange(4)[None, None, :]


def jac(x: Shaped[Array, "4 4"]) -> Shaped[Array, "16 4 4"]:
    return 1.0 * (Os == 4 * R + C)
