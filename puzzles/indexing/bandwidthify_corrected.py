r"""Puzzle `bandwidthify_corrected` (indexing chapter): Index to weights (corrected).

    The weights `bandwidthify` was meant to give (`jacpuzzles docs errata`): the same clipped positions
    and $t$, with the weights the right way round,

    $f(x) = (1 - t) \, e_{\operatorname{clip}(\ell)} + t \, e_{\operatorname{clip}(h)}$.

    Now $x = 2.2$ puts $0.8$ on position 2 and $0.2$ on position 3, and for $x \in [0, 4]$ the
    weighted mean of the positions, $f(x) \cdot (0, 1, 2, 3, 4)$, is $x$ itself. Past either end
    $f = e_0$ or $e_4$, and at an integer the derivative is 0, as before.

    Return $\partial f / \partial x$, of shape (5,).

    Fill in `jac` so that it returns the full Jacobian of `bandwidthify_corrected`, exactly what
    `jax.jacfwd(bandwidthify_corrected, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bandwidthify_corrected`; stuck? `jacpuzzles hint bandwidthify_corrected`.
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


# ---- your answer: everything below this line is yours to edit ----
def jac(index: Shaped[Array, ""], bandwidth: int) -> Shaped[Array, "5"]:
    raise NotImplementedError  # replace with your Jacobian
