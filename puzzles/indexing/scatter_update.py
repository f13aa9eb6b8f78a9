r"""Puzzle `scatter_update` (indexing chapter): Overwrite one entry.

    Overwriting entry $k$ of a vector $v \in \mathbb{R}^4$ with a scalar $s$ (`target`),
    differentiably: a one-hot mask $m = e_k$ is made by scattering a 1 into zeros at the integer
    position $k \in \{0, 1, 2, 3\}$, and

    $f(v, k, s) = v \odot (1 - m) + s \, m$,

    $v$ with entry $k$ replaced by $s$: for $v = (1, 2, 3, 4)$, $k = 2$ and $s = 10$,
    $f = (1, 2, 10, 4)$. The replaced entry no longer depends on $v_k$, so the gradient of
    $\sum_o f_o$ with respect to $v$ is $(1, 1, 0, 1)$: zero at the very entry the update targets,
    whatever the article suggests (`jacpuzzles docs errata`).

    $k$ is an integer and gets no Jacobian: return $(\partial f / \partial v, \partial f / \partial s)$,
    of shapes (4, 4) and (4,).

    Fill in `jac` so that it returns the full Jacobian of `scatter_update`, exactly what
    `jax.jacfwd(scatter_update, argnums=(0, 2))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check scatter_update`; stuck? `jacpuzzles hint scatter_update`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def scatter_update(vector: Shaped[Array, "4"], index: Int[Array, ""], target: Shaped[Array, ""]) -> Shaped[Array, "4"]:
    mask = np.zeros_like(vector).at[index].set(1.0)  # a 1 scattered into zeros at `index`
    return vector * (1 - mask) + mask * target


# ---- your answer: everything below this line is yours to edit ----
def jac(vector: Shaped[Array, "4"], index: Int[Array, ""], target: Shaped[Array, ""]) -> tuple[Shaped[Array, "4 4"], Shaped[Array, "4"]]:
    raise NotImplementedError  # replace with your Jacobian
