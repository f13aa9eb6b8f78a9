r"""Puzzle `gather` (indexing chapter): Gather.

    The batched embedding lookup of language models (`embeddings[idx]` in PyTorch and JAX,
    `tf.gather` in TensorFlow): a table $E \in \mathbb{R}^{27 \times 4}$ (`embeddings`, one row of 4
    numbers per symbol of a 27-symbol vocabulary) and a batch of symbol ids
    $\mathrm{idx} \in \{0, \ldots, 26\}^{8 \times 3}$ give

    $f(E, \mathrm{idx})_{abc} = E_{\mathrm{idx}_{ab},\, c}$, of shape (8, 3, 4).

    Ids may repeat within a batch; the checker also draws a batch where every id is the same.
    `idx` is an integer argument: return $\partial f / \partial E$ alone, of shape (8, 3, 4, 27, 4).

    Fill in `jac` so that it returns the full Jacobian of `gather`, exactly what
    `jax.jacfwd(gather, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check gather`; stuck? `jacpuzzles hint gather`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def gather(embeddings: Shaped[Array, "27 4"], idx: Int[Array, "8 3"]) -> Shaped[Array, "8 3 4"]:
    return embeddings[idx]


# ---- your answer: everything below this line is yours to edit ----
def jac(embeddings: Shaped[Array, "27 4"], idx: Int[Array, "8 3"]) -> Shaped[Array, "8 3 4 27 4"]:
    raise NotImplementedError  # replace with your Jacobian
