r"""Puzzle `naive_lookup` (indexing chapter): Naive lookup.

    $f(a, x) = a_{\operatorname{round}(x)}$: the entry of $a \in \mathbb{R}^5$ at the index
    $x \in [0, 4]$ rounded to the nearest integer.

    Rounding is half to even, as `np.round` (and TensorFlow's `tf.round`) does:
    $0.5 \to 0$, $1.5 \to 2$, $2.5 \to 2$, $3.5 \to 4$. The checker draws half-integer indices.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, of shapes (5,) and ():
    $f$ returns a scalar, so each Jacobian has just its argument's axes. The index moves the
    output only by jumps, so the derivative in $x$ is 0 wherever it exists; JAX differentiates
    rounding as 0 everywhere, at the jumps too (TensorFlow returns no gradient at all, `None`).
    For $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, $f = 3$.

    Fill in `jac` so that it returns the full Jacobian of `naive_lookup`, exactly what
    `jax.jacfwd(naive_lookup, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check naive_lookup`; stuck? `jacpuzzles hint naive_lookup`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def naive_lookup(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> Shaped[Array, ""]:
    return arr[np.round(index).astype(np.int32)]


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "5"], Shaped[Array, ""]]:
    raise NotImplementedError  # replace with your Jacobian
