r"""Puzzle `bulk_superposition_lookup` (indexing chapter): Bulk lookup (as in the notebook).

    The notebook's lookup at five fractional indices, **mistake included**. It builds the
    $5 \times 5$ weights $W = $ `bulk_bandwidthify(x, 5)` (row $r$ for the index $x_r$, swapped
    weights and all) and hands them to the soft lookup written for a single weight vector. That
    function makes $a$ a column (5, 1), gives $W$ a trailing axis (5, 5, 1), multiplies with
    broadcasting and sums over axis 0. Axis 0 of $W$ counts the indices, so instead of one lookup
    per index the result is

    $f(a, x)_{c0} = a_c \sum_{r=0}^{4} W_{rc}$, of shape (5, 1):

    each entry of $a$ scaled by the total weight the five indices put on it. For
    $a = (0, 1, 2, 3, 4)$ and $x = (1, 2, 3.5, 0, 4)$, $f = [[0], [1], [2], [1.5], [6]]$, where five
    lookups would give $(1, 2, 3.5, 0, 4)$. `bulk_superposition_lookup_corrected` does that; see
    `jacpuzzles docs errata`.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, each of shape (5, 1, 5).

    Fill in `jac` so that it returns the full Jacobian of `bulk_superposition_lookup`, exactly what
    `jax.jacfwd(bulk_superposition_lookup, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bulk_superposition_lookup`; stuck? `jacpuzzles hint bulk_superposition_lookup`.
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


def bulk_superposition_lookup(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> Shaped[Array, "5 1"]:
    weights = bulk_bandwidthify(indices, arr.shape[0])  # row r: the weights for indices[r]
    # The one-vector lookup, fed a matrix: arr as a column (5, 1), weights with a trailing
    # axis (5, 5, 1), and the sum over axis 0, which now runs over the indices.
    return np.sum(arr[:, None] * weights[:, :, None], axis=0)


# ---- your answer: everything below this line is yours to edit ----
Cs = np.arange(5)
Ks = np.arange(5)[None, :]


def jac(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "5 1 5"], Shaped[Array, "5 1 5"]]:
    lo, hi = np.floor(indices), np.ceil(indices)
    whole = (lo == hi)[:, None]
    t = np.where(whole, 0.0, (indices - lo)[:, None])
    i1 = np.clip(lo, 0, 4).astype(np.int32)[:, None]
    i2 = np.clip(hi, 0, 4).astype(np.int32)[:, None]
    # Row s of W: the notebook's (swapped) weights for indices[s]; row s of dW: their derivative.
    W = t * (Cs == i1) + (1 - t) * (Cs == i2)
    dW = np.where(whole, 0.0, 1.0 * (Cs == i1) - (Cs == i2))
    # f_c0 = arr_c * sum_s W_sc.
    d_arr = np.sum(W, axis=0)[:, None] * (Cs[:, None] == Ks)
    d_indices = arr[:, None] * dW.T
    return d_arr[:, None, :], d_indices[:, None, :]
