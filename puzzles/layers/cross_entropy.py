r"""Puzzle `cross_entropy` (layers chapter): Cross-entropy with integer labels (mean).

    A batch of 2 examples, each with 4 class scores (logits $Z \in \mathbb{R}^{2 \times 4}$) and an
    integer label $y_b \in \{0, 1, 2, 3\}$. The loss is the mean over the batch of each
    example's negative log-probability of its label:

    $f(Z, y) = \frac{1}{2} \sum_{b} \left( \log \sum_k e^{Z_{bk}} - Z_{b, y_b} \right)$.

    $f$ is a scalar, so its Jacobian with respect to $Z$ has $Z$'s shape, (2, 4). The labels are
    integers and get no Jacobian: return $\partial f / \partial Z$ alone. The checker draws labels
    that repeat and logits in the thousands.

    Fill in `jac` so that it returns the full Jacobian of `cross_entropy`, exactly what
    `jax.jacfwd(cross_entropy, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check cross_entropy`; stuck? `jacpuzzles hint cross_entropy`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def cross_entropy(logits: Shaped[Array, "2 4"], labels: Int[Array, "2"]) -> Shaped[Array, ""]:
    picked = np.take_along_axis(logits, labels[:, None], axis=1)[:, 0]
    return np.mean(jax.nn.logsumexp(logits, axis=1) - picked)


# ---- your answer: everything below this line is yours to edit ----
def jac(logits: Shaped[Array, "2 4"], labels: Int[Array, "2"]) -> Shaped[Array, "2 4"]:
    raise NotImplementedError  # replace with your Jacobian
