r"""Puzzle `log_softmax` (layers chapter): Log-softmax of each row.

    $f(X)_{ab} = X_{ab} - \log \sum_{k} e^{X_{ak}}$ for a $2 \times 3$ matrix: the log-softmax of each
    row (`axis=1`), as a classifier's output layer computes it.

    The Jacobian is 4-D, $J_{abcd} = \partial f_{ab} / \partial X_{cd}$, of shape (2, 3, 2, 3).

    Fill in `jac` so that it returns the full Jacobian of `log_softmax`, exactly what
    `jax.jacfwd(log_softmax, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check log_softmax`; stuck? `jacpuzzles hint log_softmax`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def log_softmax(x: Shaped[Array, "2 3"]) -> Shaped[Array, "2 3"]:
    return x - jax.nn.logsumexp(x, axis=1, keepdims=True)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "2 3"]) -> Shaped[Array, "2 3 2 3"]:
    raise NotImplementedError  # replace with your Jacobian
