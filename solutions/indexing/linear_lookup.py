r"""Puzzle `linear_lookup` (indexing chapter): Linear lookup (as in the notebook).

    Linear interpolation between the two entries of $a \in \mathbb{R}^5$ on either side of a
    fractional index $x \in [0, 4]$, **exactly as the notebook writes it**. With
    $\ell = \lfloor x \rfloor$, $h = \lceil x \rceil$ and

    $t = (x - \ell) / (h - \ell)$, taken as $0$ when $h = \ell$ (TensorFlow's `divide_no_nan`),

    $f(a, x) = t \, a_\ell + (1 - t) \, a_h$.

    The weights are the wrong way round: $t$ grows as $x$ moves towards $h$, yet it weighs $a_\ell$.
    So $f$ is right only halfway between integers, and its slope in $x$ has the wrong sign,
    $a_\ell - a_h$: for $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, $f = 2.5$ and
    $\partial f / \partial x = -1$. `linear_lookup_corrected` is the intended version;
    `jacpuzzles docs errata` has the details.

    At an integer $x$, $\ell = h$, so $t = 0$ and $f = a_x$ (f jumps there), and the derivative in
    $x$ is 0: $t$ gets a zero derivative from the safe division, and $a_\ell - a_h = 0$ anyway. The
    checker draws integer indices.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, of shapes (5,) and ().

    Fill in `jac` so that it returns the full Jacobian of `linear_lookup`, exactly what
    `jax.jacfwd(linear_lookup, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check linear_lookup`; stuck? `jacpuzzles hint linear_lookup`.
"""

import jax
import jax.numpy as np
from jaxtyping import Array, Int, Shaped


# The function to differentiate (read it; the checker uses its own copy).
def interpolation(index: Shaped[Array, ""]) -> tuple[Shaped[Array, ""], Int[Array, ""], Int[Array, ""]]:
    lo, hi = np.floor(index), np.ceil(index)
    gap = hi - lo  # 1 between integers, 0 at an integer
    # TensorFlow's divide_no_nan: t = 0, with a zero derivative, where the gap is 0.
    t = np.where(gap == 0, 0.0, (index - lo) / np.where(gap == 0, 1.0, gap))
    return t, lo.astype(np.int32), hi.astype(np.int32)


def linear_lookup(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> Shaped[Array, ""]:
    t, lo, hi = interpolation(index)
    return t * arr[lo] + (1 - t) * arr[hi]


# ---- your answer: everything below this line is yours to edit ----
Is = np.arange(5)


def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "5"], Shaped[Array, ""]]:
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi  # an integer index: t = 0, and its derivative is 0 too
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = t * (Is == i1) + (1 - t) * (Is == i2)
    d_index = np.where(whole, 0.0, arr[i1] - arr[i2])
    return d_arr, d_index
