r"""Puzzle `bulk_bandwidthify_corrected` (indexing chapter): Many indices to weights (corrected).

    `bandwidthify_corrected` applied to each of five indices $x \in [-1, 5]^5$ (`jacpuzzles docs errata`):
    row $r$ is $(1 - t_r) \, e_{\operatorname{clip}(\ell_r)} + t_r \, e_{\operatorname{clip}(h_r)}$.

    The Jacobian with respect to $x$ has shape (5, 5, 5): $J_{rcs} = \partial f_{rc} / \partial x_s$.

    Fill in `jac` so that it returns the full Jacobian of `bulk_bandwidthify_corrected`, exactly what
    `jax.jacfwd(bulk_bandwidthify_corrected, argnums=0)` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bulk_bandwidthify_corrected`; stuck? `jacpuzzles hint bulk_bandwidthify_corrected`.
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


def bulk_bandwidthify_corrected(indices: Shaped[Array, "5"], bandwidth: int) -> Shaped[Array, "5 5"]:
    return np.stack([bandwidthify_corrected(index, bandwidth) for index in indices])


# ---- your answer: everything below this line is yours to edit ----
Rs = np.arange(5)[:, None, None]
Ss = np.arange(5)


def jac(indices: Shaped[Array, "5"], bandwidth: int) -> Shaped[Array, "5 5 5"]:
    lo, hi = np.floor(indices), np.ceil(indices)
    i1 = np.clip(lo, 0, bandwidth - 1).astype(np.int32)
    i2 = np.clip(hi, 0, bandwidth - 1).astype(np.int32)
    Cs = np.arange(bandwidth)
    # Row r: the derivative of row r with respect to indices[r]; other indices do not touch it.
    rows = np.where((lo == hi)[:, None], 0.0, 1.0 * (Cs == i2[:, None]) - (Cs == i1[:, None]))
    return rows[:, :, None] * (Rs == Ss)
