r"""Puzzle `superposition_lookup` (indexing chapter): Scalar-index superposition lookup (as in the notebook).

    A lookup at a fractional index built from the two pieces before, as in the notebook: the
    weights $w = $ `bandwidthify(x, 5)` (the notebook's, swapped weights included), then the soft
    lookup of $a \in \mathbb{R}^5$ with them, which keeps a length-1 axis:

    $f(a, x) = [\, w(x) \cdot a \,] = [\, t \, a_{\operatorname{clip}(\ell)} + (1 - t) \, a_{\operatorname{clip}(h)} \,]$.

    Inside $[0, 4]$ this is `linear_lookup`, slope of the wrong sign included: for
    $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, $f = [2.5]$ and $\partial f / \partial x = [-1]$.
    It also accepts $x \in [-1, 5]$, returning $a_0$ below 0 and $a_4$ above 4. See
    `jacpuzzles docs errata` and `superposition_lookup_corrected`.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, of shapes (1, 5) and (1,).

    Fill in `jac` so that it returns the full Jacobian of `superposition_lookup`, exactly what
    `jax.jacfwd(superposition_lookup, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check superposition_lookup`; stuck? `jacpuzzles hint superposition_lookup`.
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


def bandwidthify(index: Shaped[Array, ""], bandwidth: int) -> Shaped[Array, "5"]:
    t, lo, hi = interpolation(index)
    lo, hi = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    t = np.clip(t, 0, 1)
    eye = np.eye(bandwidth)
    return t * eye[lo] + (1 - t) * eye[hi]


def superposition_lookup(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> Shaped[Array, "1"]:
    weights = bandwidthify(index, arr.shape[0])
    return np.sum(arr[:, None] * weights[:, None], axis=0)


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "1 5"], Shaped[Array, "1"]]:
    raise NotImplementedError  # replace with your Jacobian
