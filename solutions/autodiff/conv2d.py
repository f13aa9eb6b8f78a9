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
Is = np.arange(16)
Os = np.arange(16)[:, None]
Ks = np.arange(4)


def jac(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "16 16"], Shaped[Array, "16 4"]]:
    # Output (r, c) = (o // 4, o % 4) meets input (s, t) through kernel tap (p, q) = (r - s, c - t).
    p, q = Os // 4 - Is // 4, Os % 4 - Is % 4
    tap = (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    dx = np.where(tap, y[2 * np.clip(p, 0, 1) + np.clip(q, 0, 1)], 0) / 4
    # d f_rc / d K_pq = X[r - p, c - q]: pad the image with a zero row on top and a zero column on the left.
    padded = np.pad(x.reshape(4, 4), ((1, 0), (1, 0)))
    dy = padded[Os // 4 - Ks // 2 + 1, Os % 4 - Ks % 2 + 1] / 4
    return dx, dy
