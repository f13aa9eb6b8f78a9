r"""Puzzle `gather_vjp` (indexing chapter): Gather: the backward pass.

    The same `gather`, $f(E, \mathrm{idx})_{abc} = E_{\mathrm{idx}_{ab},\, c}$, but now write its
    backward pass, as reverse-mode autodiff runs it: `vjp(embeddings, idx, g)` takes the upstream
    gradient $g \in \mathbb{R}^{8 \times 3 \times 4}$ (the derivative of a loss with respect to
    $f$) and returns the loss's gradient with respect to the table,

    $\bar E_{rc} = \sum_{a, b, c'} g_{abc'} \, \frac{\partial f_{abc'}}{\partial E_{rc}} = \sum_{(a, b) \,:\, \mathrm{idx}_{ab} = r} g_{abc}$,

    without building the Jacobian of `gather`. Each row of $g$ is added into the row of the table it
    was read from: an id that occurs several times collects several rows (a scatter-add), and a row
    never read gets zeros. Shape (27, 4), one array (`idx` gets no gradient).

    A backward-pass puzzle: fill in `vjp`, which takes f's arguments and the upstream
    gradient `g` (shaped like f's output) and returns d_embeddings: what `jax.vjp(gather, ...)` (the chain rule)
    gives for that `g`, one array per floating argument, shaped like the argument.
    Check it with `jacpuzzles check gather_vjp`; stuck? `jacpuzzles hint gather_vjp`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def gather(embeddings: Shaped[Array, "27 4"], idx: Int[Array, "8 3"]) -> Shaped[Array, "8 3 4"]:
    return embeddings[idx]


# ---- your answer: everything below this line is yours to edit ----
Rs = np.arange(27)


def vjp(embeddings: Shaped[Array, "27 4"], idx: Int[Array, "8 3"], g: Shaped[Array, "8 3 4"]) -> Shaped[Array, "27 4"]:
    # Row r collects every row of g read from table row r: repeated ids add up.
    onehot = 1.0 * (idx[:, :, None] == Rs)  # (8, 3, 27)
    return np.einsum("abr,abc->rc", onehot, g)
