r"""Puzzle `attention` (layers chapter): Scaled dot-product attention (causal).

    Single-head attention over a sequence of 3 positions, each with queries, keys and values of
    dimension 2 ($Q, K, V \in \mathbb{R}^{3 \times 2}$):

    $S_{ij} = \dfrac{Q_i \cdot K_j}{\sqrt{2}}$, $\quad P_{ij} = \dfrac{e^{S_{ij}}}{\sum_{k \le i} e^{S_{ik}}}$ for $j \le i$ and $P_{ij} = 0$ for $j > i$, $\quad f(Q, K, V)_{ia} = \sum_j P_{ij} V_{ja}$.

    The mask is causal: position $i$ attends only to positions $j \le i$, so the first position copies $V_0$, whatever $Q$ and $K$ are.

    Return the triple $(\partial f / \partial Q, \partial f / \partial K, \partial f / \partial V)$, each of shape (3, 2, 3, 2).

    Fill in `jac` so that it returns the full Jacobian of `attention`, exactly what
    `jax.jacfwd(attention, argnums=(0, 1, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check attention`; stuck? `jacpuzzles hint attention`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def attention(q: Shaped[Array, "3 2"], k: Shaped[Array, "3 2"], v: Shaped[Array, "3 2"]) -> Shaped[Array, "3 2"]:
    scores = q @ k.T / np.sqrt(2.0)
    allowed = np.tril(np.ones((3, 3), dtype=bool))  # causal: position i sees j <= i
    weights = jax.nn.softmax(np.where(allowed, scores, -np.inf), axis=1)
    return weights @ v


# ---- your answer: everything below this line is yours to edit ----
def jac(q: Shaped[Array, "3 2"], k: Shaped[Array, "3 2"], v: Shaped[Array, "3 2"]) -> tuple[Shaped[Array, "3 2 3 2"], Shaped[Array, "3 2 3 2"], Shaped[Array, "3 2 3 2"]]:
    raise NotImplementedError  # replace with your Jacobian
