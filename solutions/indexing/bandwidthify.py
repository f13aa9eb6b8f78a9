r"""Puzzle `bandwidthify` (indexing chapter): Index to weights (as in the notebook).

    Turns a fractional index $x \in [-1, 5]$ into a weight vector over $B = 5$ positions, as the
    notebook does, swapped weights included. $B$ is `bandwidth`, a fixed Python int. With $\ell$, $h$
    and $t$ as in `linear_lookup`, both positions are clipped to $[0, B - 1]$ and $t$ to $[0, 1]$:

    $f(x) = t \, e_{\operatorname{clip}(\ell)} + (1 - t) \, e_{\operatorname{clip}(h)}$,

    where $e_i$ is row $i$ of the $5 \times 5$ identity. For $x = 2.5$, $f = (0, 0, 0.5, 0.5, 0)$;
    for $x = 2.2$ the weights are swapped, $0.2$ on position 2 and $0.8$ on position 3
    (`bandwidthify_corrected` is the intended version; see `jacpuzzles docs errata`).

    Below 0 and above 4 both positions clip to the same end, so $f = e_0$ or $e_4$. At an integer
    $x$, $t = 0$ with a zero derivative, as in `linear_lookup`.

    `bandwidth` is an int and gets no Jacobian: return $\partial f / \partial x$ alone, of shape (5,).

    Fill in `jac` so that it returns the full Jacobian of `bandwidthify`, exactly what
    `jax.jacfwd(bandwidthify, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bandwidthify`; stuck? `jacpuzzles hint bandwidthify`.
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


# ---- your answer: everything below this line is yours to edit ----
def jac(index: Shaped[Array, ""], bandwidth: int) -> Shaped[Array, "5"]:
    lo, hi = np.floor(index), np.ceil(index)
    i1 = np.clip(lo, 0, bandwidth - 1).astype(np.int32)
    i2 = np.clip(hi, 0, bandwidth - 1).astype(np.int32)
    Cs = np.arange(bandwidth)
    # dt/dx is 1 between integers and 0 at an integer; past the ends i1 == i2 and the terms cancel.
    return np.where(lo == hi, 0.0, 1.0 * (Cs == i1) - (Cs == i2))
