r"""Puzzle `bulk_bandwidthify` (indexing chapter): Many indices to weights (as in the notebook).

    `bandwidthify` (the notebook's, swapped weights included) applied to each of five indices
    $x \in [-1, 5]^5$: row $r$ of the $5 \times 5$ result is
    $t_r \, e_{\operatorname{clip}(\ell_r)} + (1 - t_r) \, e_{\operatorname{clip}(h_r)}$, with
    $\ell_r$, $h_r$ and $t_r$ computed from $x_r$. For $x = (1, 2, 3.5, 0, 4)$ the rows are $e_1$,
    $e_2$, $(0, 0, 0, 0.5, 0.5)$, $e_0$ and $e_4$. See `jacpuzzles docs errata` and
    `bulk_bandwidthify_corrected`.

    The Jacobian with respect to $x$ has shape (5, 5, 5): $J_{rcs} = \partial f_{rc} / \partial x_s$.

    Fill in `jac` so that it returns the full Jacobian of `bulk_bandwidthify`, exactly what
    `jax.jacfwd(bulk_bandwidthify, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bulk_bandwidthify`; stuck? `jacpuzzles hint bulk_bandwidthify`.
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


def bulk_bandwidthify(indices: Shaped[Array, "5"], bandwidth: int) -> Shaped[Array, "5 5"]:
    return np.stack([bandwidthify(index, bandwidth) for index in indices])


# ---- your answer: everything below this line is yours to edit ----
Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices: Shaped[Array, "5"], bandwidth: int) -> Shaped[Array, "5 5 5"]:
    lo, hi = np.floor(indices), np.ceil(indices)
    i1 = np.clip(lo, 0, bandwidth - 1).astype(np.int32)
    i2 = np.clip(hi, 0, bandwidth - 1).astype(np.int32)
    Cs = np.arange(bandwidth)
    # Row r: the derivative of row r with respect to indices[r]; other indices do not touch it.
    rows = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i1[:, None]) - (Cs == i2[:, None]))
    return rows[:, :, None] * (Rs == Ss)
