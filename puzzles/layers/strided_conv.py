r"""Puzzle `strided_conv` (layers chapter): Strided, padded 1-D convolution (stride 2, padding 1).

    A convolution layer as deep-learning libraries define it (a cross-correlation: the kernel is not
    flipped), on $x \in \mathbb{R}^{7}$ with a kernel $w \in \mathbb{R}^{3}$, stride $s = 2$ and
    1 zero of padding on each side ($\tilde x$ is $x$ padded, $\tilde x_{j} = x_{j - 1}$ and 0 off $x$):

    $f(x, w)_o = \sum_{k=0}^{2} \tilde x_{2 o + k} \, w_k$ for $o = 0, \ldots, 3$ (4 outputs).

    Return the pair $(\partial f / \partial x, \partial f / \partial w)$, of shapes (4, 7) and (4, 3).

    Fill in `jac` so that it returns the full Jacobian of `strided_conv`, exactly what
    `jax.jacfwd(strided_conv, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check strided_conv`; stuck? `jacpuzzles hint strided_conv`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def strided_conv(x: Shaped[Array, "7"], w: Shaped[Array, "3"]) -> Shaped[Array, "4"]:
    padded = np.pad(x, 1)
    windows = 2 * np.arange(4)[:, None] + np.arange(3)  # the padded inputs of each output
    return padded[windows] @ w


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "7"], w: Shaped[Array, "3"]) -> tuple[Shaped[Array, "4 7"], Shaped[Array, "4 3"]]:
    raise NotImplementedError  # replace with your Jacobian
