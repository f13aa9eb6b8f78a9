r"""Puzzle `conv2d` (autodiff chapter): 2-D convolution.

    $x \in \mathbb{R}^{16}$ is read as a $4 \times 4$ image $X$ and $y \in \mathbb{R}^{4}$ as a
    $2 \times 2$ kernel $K$ (both row-major). $f$ is the "same"-size 2-D convolution divided by 4,
    flattened to 16 entries:

    $f_{4r + c} = \frac{1}{4} \sum_{p=0}^{1} \sum_{q=0}^{1} K_{pq} \, X_{r-p,\, c-q}$,

    where terms with $r - p < 0$ or $c - q < 0$ are zero (the image is padded with zeros at the top
    and left; this is what scipy's and JAX's `convolve2d(..., mode="same")` do for an even kernel).

    Return the pair $(\partial f / \partial x, \partial f / \partial y)$, of shapes (16, 16) and (16, 4).

    Fill in `jac` so that it returns the full Jacobian of `conv2d`, exactly what
    `jax.jacfwd(conv2d, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check conv2d`; stuck? `jacpuzzles hint conv2d`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def conv2d(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> Shaped[Array, "16"]:
    return jax.scipy.signal.convolve2d(
        x.reshape(4, 4), y.reshape(2, 2), mode="same"
    ).reshape(16) / 4


# ---- your answer: everything below this line is yours to edit ----
def jac(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "16 16"], Shaped[Array, "16 4"]]:
    raise NotImplementedError  # replace with your Jacobian
