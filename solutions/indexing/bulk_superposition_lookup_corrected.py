r"""Puzzle `bulk_superposition_lookup_corrected` (indexing chapter): Bulk lookup (corrected).

    One lookup per index, as intended (`jacpuzzles docs errata`): with $W = $
    `bulk_bandwidthify_corrected(x, 5)`,

    $f(a, x)_r = \sum_{c=0}^{4} W_{rc} \, a_c$, that is $f = W a$, of shape (5,),

    so $f_r$ is the corrected `superposition_lookup` of $a$ at $x_r$. For $a = (0, 1, 2, 3, 4)$ and
    $x = (1, 2, 3.5, 0, 4)$, $f = (1, 2, 3.5, 0, 4)$.

    Return the pair $(\partial f / \partial a, \partial f / \partial x)$, each of shape (5, 5).

    Fill in `jac` so that it returns the full Jacobian of `bulk_superposition_lookup_corrected`, exactly what
    `jax.jacfwd(bulk_superposition_lookup_corrected, argnums=(0, 1))` returns: output axes first,
    then input axes. Check it with `jacpuzzles check bulk_superposition_lookup_corrected`; stuck? `jacpuzzles hint bulk_superposition_lookup_corrected`.
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


def bulk_superposition_lookup_corrected(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> Shaped[Array, "5"]:
    return bulk_bandwidthify_corrected(indices, arr.shape[0]) @ arr


# ---- your answer: everything below this line is yours to edit ----
Cs = np.arange(5)


def jac(arr: Shaped[Array, "5"], indices: Shaped[Array, "5"]) -> tuple[Shaped[Array, "5 5"], Shaped[Array, "5 5"]]:
    lo, hi = np.floor(indices), np.ceil(indices)
    whole = lo == hi
    t = np.where(whole, 0.0, indices - lo)[:, None]
    i1 = np.clip(lo, 0, 4).astype(np.int32)
    i2 = np.clip(hi, 0, 4).astype(np.int32)
    W = (1 - t) * (Cs == i1[:, None]) + t * (Cs == i2[:, None])
    # f = W @ arr, and f_r depends on indices[r] alone.
    return W, np.diag(np.where(whole, 0.0, arr[i2] - arr[i1]))
