r"""Puzzle `superposition_lookup_corrected` (indexing chapter): Scalar-index superposition lookup (corrected).

    `superposition_lookup` with `bandwidthify_corrected` (`jacpuzzles docs errata`):

    $f(a, x) = [\, (1 - t) \, a_{\operatorname{clip}(\ell)} + t \, a_{\operatorname{clip}(h)} \,]$,

    the linear interpolation of $a$ at $x$, held at $a_0$ below 0 and at $a_4$ above 4. For
    $a = (1, 2, 3, 4, 5)$ and $x = 1.5$, $f = [2.5]$ and $\partial f / \partial x = [+1]$.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, of shapes (1, 5) and (1,).

    Fill in `jac` so that it returns the full Jacobian of `superposition_lookup_corrected`, exactly what
    `jax.jacfwd(superposition_lookup_corrected, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check superposition_lookup_corrected`; stuck? `jacpuzzles hint superposition_lookup_corrected`.
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


def bandwidthify_corrected(index: Shaped[Array, ""], bandwidth: int) -> Shaped[Array, "5"]:
    t, lo, hi = interpolation(index)
    lo, hi = np.clip(lo, 0, bandwidth - 1), np.clip(hi, 0, bandwidth - 1)
    t = np.clip(t, 0, 1)
    eye = np.eye(bandwidth)
    return (1 - t) * eye[lo] + t * eye[hi]


def superposition_lookup_corrected(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> Shaped[Array, "1"]:
    weights = bandwidthify_corrected(index, arr.shape[0])
    return np.sum(arr[:, None] * weights[:, None], axis=0)


# ---- your answer: everything below this line is yours to edit ----
def jac(arr: Shaped[Array, "5"], index: Shaped[Array, ""]) -> tuple[Shaped[Array, "1 5"], Shaped[Array, "1"]]:
    raise NotImplementedError  # replace with your Jacobian
