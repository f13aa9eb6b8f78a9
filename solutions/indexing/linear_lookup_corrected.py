r"""Puzzle `linear_lookup_corrected` (indexing chapter): Linear lookup (corrected).

    The interpolation `linear_lookup` meant to compute (`jacpuzzles docs errata`). With $\ell$, $h$ and
    $t$ as there (the same safe division),

    $f(a, x) = (1 - t) \, a_\ell + t \, a_h$.

    Between integers this is the straight line through $(\ell, a_\ell)$ and $(h, a_h)$, so the slope
    in $x$ is $a_h - a_\ell$: $+1$ for $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, where $f = 2.5$.

    At an integer index $t = 0$ and $f = a_x$, now continuously, and the derivative in $x$ is 0 there
    (JAX's, TensorFlow's and the checker's), even where the interpolation runs straight through the
    point: the convention is kept on purpose (`jacpuzzles docs errata`, erratum 7).

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, of shapes (5,) and ().

    Fill in `jac` so that it returns the full Jacobian of `linear_lookup_corrected`, exactly what
    `jax.jacfwd(linear_lookup_corrected, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check linear_lookup_corrected`; stuck? `jacpuzzles hint linear_lookup_corrected`.
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


def linear_lookup_corrected(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> Shaped[Array, ""]:
    t, lo, hi = interpolation(index)
    return (1 - t) * arr[lo] + t * arr[hi]


# ---- your answer: everything below this line is yours to edit ----
Is = np.arange(5)


def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "5"], Shaped[Array, ""]]:
    lo, hi = np.floor(index), np.ceil(index)
    whole = lo == hi  # an integer index: t = 0, and its derivative is 0 too
    t = np.where(whole, 0.0, index - lo)
    i1, i2 = lo.astype(np.int32), hi.astype(np.int32)
    d_arr = (1 - t) * (Is == i1) + t * (Is == i2)
    d_index = np.where(whole, 0.0, arr[i2] - arr[i1])
    return d_arr, d_index
