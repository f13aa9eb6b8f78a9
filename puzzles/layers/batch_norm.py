r"""Puzzle `batch_norm` (layers chapter): Batch norm (training mode).

    Batch normalisation in training mode of a batch $X \in \mathbb{R}^{4 \times 2}$ (4 examples, 2 features),
    without the learned gain and bias. Each feature (column) is normalised with its statistics
    over the batch, which are computed from the batch itself:

    $\mu_d = \frac{1}{B} \sum_a X_{ad}$, $\quad \sigma_d = \sqrt{\frac{1}{B} \sum_a (X_{ad} - \mu_d)^2 + \varepsilon}$, $\quad f(X)_{ad} = Y_{ad} = (X_{ad} - \mu_d) / \sigma_d$,

    with $B = 4$ and $\varepsilon = 10^{-5}$. The Jacobian is 4-D, shape (4, 2, 4, 2).

    Fill in `jac` so that it returns the full Jacobian of `batch_norm`, exactly what
    `jax.jacfwd(batch_norm, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check batch_norm`; stuck? `jacpuzzles hint batch_norm`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def batch_norm(x: Shaped[Array, "4 2"]) -> Shaped[Array, "4 2"]:
    centred = x - np.mean(x, axis=0)
    return centred / np.sqrt(np.mean(centred**2, axis=0) + 1e-5)


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "4 2"]) -> Shaped[Array, "4 2 4 2"]:
    raise NotImplementedError  # replace with your Jacobian
