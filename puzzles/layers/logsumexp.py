r"""Puzzle `logsumexp` (layers chapter): Log-sum-exp over rows.

    $f(X)_{o} = \log \sum_{k} e^{X_{ok}}$ for a $2 \times 4$ matrix (`axis=1`): the smooth maximum of each
    row, 2 outputs. Jacobian shape (2, 2, 4).

    The checker draws entries in the thousands: `np.exp` overflows there, so subtract each row's
    largest entry before exponentiating.

    Fill in `jac` so that it returns the full Jacobian of `logsumexp`, exactly what
    `jax.jacfwd(logsumexp, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check logsumexp`; stuck? `jacpuzzles hint logsumexp`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def logsumexp(x: Shaped[Array, "2 4"]) -> Shaped[Array, "2"]:
    return jax.nn.logsumexp(x, axis=1)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "2 4"]) -> Shaped[Array, "2 2 4"]:
    raise NotImplementedError  # replace with your Jacobian
