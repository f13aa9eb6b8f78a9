r"""Puzzle `embedding_bag` (layers chapter): Embedding bag (sum).

    An embedding bag, as recommenders and bag-of-words models use: a table
    $E \in \mathbb{R}^{5 \times 2}$ (one row of 2 numbers per symbol of a 5-symbol vocabulary), 6 symbol
    ids $\mathrm{id} \in \{0, \ldots, 4\}^6$ and fixed bags: ids 0-1 form bag 0, ids 2-4 bag 1, id 5 bag 2.
    Each bag is the sum of the rows its ids look up (a gather, then a segment sum):

    $f(E, \mathrm{id})_{bc} =  \sum_{n \in \mathrm{bag}\ b} E_{\mathrm{id}_n,\, c}$, of shape (3, 2).

    Ids may repeat, in a bag and across bags; the checker draws such ids. The ids are integers and
    get no Jacobian: return $\partial f / \partial E$ alone, of shape (3, 2, 5, 2).

    Fill in `jac` so that it returns the full Jacobian of `embedding_bag`, exactly what
    `jax.jacfwd(embedding_bag, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check embedding_bag`; stuck? `jacpuzzles hint embedding_bag`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def embedding_bag(table: Shaped[Array, "5 2"], ids: Int[Array, "6"]) -> Shaped[Array, "3 2"]:
    bags = np.array([0, 0, 1, 1, 1, 2])  # the bag of each id
    sums = jax.ops.segment_sum(table[ids], bags, num_segments=3)
    return sums


# ---- your answer: everything below this line is yours to edit ----
def jac(table: Shaped[Array, "5 2"], ids: Int[Array, "6"]) -> Shaped[Array, "3 2 5 2"]:
    raise NotImplementedError  # replace with your Jacobian
