r"""Puzzle `conv` (autodiff chapter): 1-D convolution.

    $f(x, y) = \operatorname{convolve}(x, y) / 5$ in numpy's "valid" mode, with $x \in \mathbb{R}^{10}$
    and the kernel $y \in \mathbb{R}^{5}$, giving 6 outputs.

    Convolution flips the kernel:
    $f(x, y)_o = \frac{1}{5} \sum_{k=0}^{4} x_{o+k} \, y_{4-k}$ for $o = 0, \ldots, 5$.
    (Without the flip this would be a cross-correlation.)

    Return the pair $(\partial f / \partial x, \partial f / \partial y)$, of shapes (6, 10) and (6, 5).

    Fill in `jac` so that it returns the full Jacobian of `conv`, exactly what
    `jax.jacfwd(conv, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check conv`; stuck? `jacpuzzles hint conv`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def conv(x: Shaped[Array, "10"], y: Shaped[Array, "5"]) -> Shaped[Array, "6"]:
    return np.convolve(x, y, mode="valid") / 5


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "10"], y: Shaped[Array, "5"]) -> tuple[Shaped[Array, "6 10"], Shaped[Array, "6 5"]]:
    raise NotImplementedError  # replace with your Jacobian
