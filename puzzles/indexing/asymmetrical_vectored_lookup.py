r"""Puzzle `asymmetrical_vectored_lookup` (indexing chapter): Asymmetric lookup: write the backward pass.

    A lookup whose backward pass is written by hand, not derived; here you write that backward pass.

    **Forward.** For each row $b$ of $V \in \mathbb{R}^{2 \times 3}$ (`v`) and the probability
    vector $K_b$ (row $b$ of `k`), take the value at the most likely index:

    $r_b = V_{b, a_b}$, where $a_b = \arg\max_i K_{bi}$.

    Its true derivative in $K$ is 0 almost everywhere, which would teach nothing, so the notebook
    attaches its own rule (TensorFlow's `custom_gradient`; the checker uses `jax.custom_vjp`).

    **Backward.** Given the upstream gradient $g \in \mathbb{R}^2$ (`g`, the derivative of the loss
    with respect to $r$), for each row $b$:

    1. the target $\tau_b = r_b - g_b$, where one gradient step of size 1 would move $r_b$;
    2. $j_b = \arg\min_i \, (V_{bi} - \tau_b)^2$, the entry of row $b$ nearest the target;
    3. $\bar V_{bi} = g_b \, K_{bi}$, the gradient of the soft lookup $\sum_i K_{bi} V_{bi}$;
    4. $\bar K_{bi} = -|g_b|$ if $i = j_b$, and $+|g_b|$ otherwise: gradient descent raises the
       weight on the entry nearest the target and lowers the others.

    Write `vjp(v, k, g)` returning the pair $(\bar V, \bar K)$, each of shape (2, 3): what the
    pullback of `jax.vjp` returns for this f and upstream gradient $g$.

    For $V = ((1, 2, 3), (10, 20, 30))$ and $K = ((0, 1, 0), (1, 0, 0))$, $r = (2, 10)$. With
    $g = (1, 1)$, $\bar K = ((-1, 1, 1), (-1, 1, 1))$. With $g = r - (3, 20) = (-1, -10)$, the
    gradient of $\frac{1}{2} \lVert r - (3, 20) \rVert^2$, $\bar K = ((1, 1, -1), (10, -10, 10))$.
    The checker keeps each row's largest $K$ entry, and its entry nearest the target, unique. The
    rule is not linear in $g$, so it is no Jacobian's transpose: `jacpuzzles docs errata` explains why
    this puzzle asks for the backward pass itself.

    A backward-pass puzzle: fill in `vjp`, which takes f's arguments and the upstream
    gradient `g` (shaped like f's output) and returns dv, dk: what the custom gradient described above
    gives for that `g`, one array per floating argument, shaped like the argument.
    Check it with `jacpuzzles check asymmetrical_vectored_lookup`; stuck? `jacpuzzles hint asymmetrical_vectored_lookup`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def asymmetrical_vectored_lookup(v: Shaped[Array, "2 3"], k: Shaped[Array, "2 3"]) -> Shaped[Array, "2"]:
    # The forward pass: each row's value at its most likely index. The backward pass is the
    # rule in the statement, attached by the checker with jax.custom_vjp.
    best = np.argmax(k, axis=1)
    return np.take_along_axis(v, best[:, None], axis=1)[:, 0]


# ---- your answer: everything below this line is yours to edit ----
def vjp(v: Shaped[Array, "2 3"], k: Shaped[Array, "2 3"], g: Shaped[Array, "2"]) -> tuple[Shaped[Array, "2 3"], Shaped[Array, "2 3"]]:
    raise NotImplementedError  # replace with your backward pass
