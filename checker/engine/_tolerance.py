"""When an answer's entry counts as equal to the expected one: tolerances per dtype.

An entry passes when `|yours - expected| <= atol * scale + rtol * |expected|`, where `scale` is
the largest magnitude in that expected Jacobian. The scale keeps a Jacobian whose entries are all
around 1e18 (a product of large numbers) from failing on rounding, while an entry that is wrong by
more than rounding still fails. There is deliberately no floor under the scale of a block with
any nonzero entry: at an input with a zero entry, prod's Jacobian has a single nonzero entry,
often below 1e-20, and an answer that puts 0 there must fail however small that entry is. An
all-zero block is compared at scale 1. NaN and inf never pass.

The expected Jacobians are float64 (`_numerics`), and the tolerance is the one of the precision
the answer returns. A float64 answer, or a wider one (`np.longdouble`), gets rtol 1e-7: a
constant rounded to six digits fails, and so does a formula exact in maths that keeps no digit
of a small entry (`cos(x + pi/2)` for `-sin(x)` is off by 6e-17 absolute, all of a slope of
1e-40, where a one-entry argument is drawn). An
answer that returns float32 gets the float32 rule, rtol 2e-6 (a product of ten float32 roundings
is within 1.2e-6); one that returns float16 or bfloat16 is read as numbers and judged by the
float32 rule too, so it passes only where its values are exact (0, 1, 1/4, 2), and the judge
says why otherwise.

A draw may raise atol for its own blocks (`Draw.atol`): where the Jacobian is a sum of terms
that cancel to a small part of themselves (attention with v's rows, or k's, equal to 1e-7 of
their size), float64's rounding of those terms is beyond 1e-12 of the block's largest entry
in every right answer and in jacfwd itself (jacrev differs from it by as much), and no answer
could meet the contract there. Such a draw still refuses an answer that drops the small terms.
A draw with a whole argument near the bottom of float64's normal range sets an absolute floor
(`Draw.floor`, 64 times float64's smallest normal) under which any difference passes: there a
product of an entry and a factor below 1 may be a subnormal, which XLA flushes to 0 and a fused
multiply-add or TensorFlow keeps, so right answers differ by a few subnormals according to the
order they multiply in. Its entries that matter are far above the floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the shapes are checked by hand: beartype's import alone cost a tenth of a warm check
    from jaxtyping import Bool, Shaped

# (rtol, atol) by the dtype of the answer's block: the precision it computed in.
TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-7, 1e-12),
    "float32": (2e-6, 1e-6),
}


# The atol of a draw among `Arg.cancelling_spreads`: at relative spreads of 3e-8 and 1e-7,
# jacrev and two right answers written differently (attention's, 1000 draws each) stray from
# jacfwd by up to 4e-7 of the block's largest entry; an answer that drops the cancelling terms
# is off by all of it.
CANCELLING_ATOL = 1e-5
# And an absolute floor there: with every entry equal (identical keys) the Q block is exactly 0, and
# what jacfwd or any right answer returns is rounding noise of 1e-17, the block's only scale (red
# team RT37). Declared only for arguments of order 1 (attention's, in [-1, 1]), whose blocks'
# entries are of order 0.01 to 1, so 1e-13 of them lets the noise through and nothing else.
CANCELLING_FLOOR = 1e-13


def tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for an answer block of `dtype`: float64's for exact (integer, boolean) values
    and for float64 or any wider float (`np.longdouble`: never looser than float64), float32's
    for float32 and anything less precise."""
    if dtype.kind in "biu" or at_least_float64(dtype):
        return TOLERANCES["float64"]
    return TOLERANCES["float32"]


def at_least_float64(dtype: np.dtype) -> bool:
    """Whether `dtype` is a float at least as precise as float64 (float64, longdouble)."""
    return dtype.kind == "f" and dtype.itemsize >= 8


def close(actual: np.ndarray | np.generic, expected: np.ndarray | np.generic, atol: float = 0.0,
          floor: float = 0.0) -> np.ndarray:
    """A boolean array, True where `actual` matches `expected` within the tolerance of `actual`'s
    dtype, its atol raised to `atol` where that is larger (a draw's own, `Draw.atol`), or within
    `floor` absolutely (`Draw.floor`).

    Both have the same shape (checked at run time); NaN or inf in either gives False. A scalar
    block (the derivative of a scalar by a scalar) is a 0-d array.
    """
    return _close(np.asarray(actual), np.asarray(expected), atol, floor)


def _close(actual: Shaped[np.ndarray, "*jac"], expected: Shaped[np.ndarray, "*jac"],
           least: float = 0.0, floor: float = 0.0) -> Bool[np.ndarray, "*jac"]:
    """`close` on arrays of one shape."""
    _same_shape(actual, expected)
    rtol, atol = tolerance(actual.dtype)
    atol = max(atol, least)
    e = np.asarray(expected, dtype=np.float64)
    a = np.asarray(actual, dtype=np.float64)
    finite = np.isfinite(e)
    # An all-zero block has no scale of its own; 1 lets a correct formula's rounding through.
    scale = float(np.max(np.abs(e[finite]), initial=0.0)) or 1.0
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.abs(a - e) <= np.maximum(atol * scale + rtol * np.abs(e), floor)
    return np.asarray(ok & np.isfinite(a) & finite)


def close_per_draw(actual: np.ndarray, expected: np.ndarray, atols: Sequence[float] = (),
                   floors: Sequence[float] = ()) -> np.ndarray:
    """`close(actual[d], expected[d], atols[d], floors[d]).all()` for every draw `d` at once (the
    draw axis first; no `atols` or `floors`, every draw's 0): one vectorised comparison instead
    of one call per draw, for the common case where every draw's block has the same shape."""
    return _close_per_draw(np.asarray(actual), np.asarray(expected), atols, floors)


def _close_per_draw(actual: Shaped[np.ndarray, " n *jac"], expected: Shaped[np.ndarray, " n *jac"],
                    atols: Sequence[float] = (), floors: Sequence[float] = ()) -> Bool[np.ndarray, " n"]:
    """`close_per_draw` on stacks of one shape."""
    _same_shape(actual, expected)
    if actual.ndim == 0:
        raise ValueError("close_per_draw compares stacks of blocks, draws first: got 0-d arrays")
    rtol, own = tolerance(actual.dtype)
    atol = np.maximum(own, np.asarray(atols, dtype=np.float64))[:, None] if len(atols) else own
    floor = np.asarray(floors, dtype=np.float64)[:, None] if len(floors) else 0.0
    e = np.asarray(expected, dtype=np.float64).reshape(len(expected), -1)
    a = np.asarray(actual, dtype=np.float64).reshape(len(actual), -1)
    finite = np.isfinite(e)
    scale = np.max(np.abs(np.where(finite, e, 0.0)), axis=1, initial=0.0)
    scale = np.where(scale == 0, 1.0, scale)[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.abs(a - e) <= np.maximum(atol * scale + rtol * np.abs(e), floor)
    return np.asarray(np.all(ok & np.isfinite(a) & finite, axis=1))


def _same_shape(actual: np.ndarray, expected: np.ndarray) -> None:
    """Raise ValueError (a fault of the kit: the judge compares shapes first) unless both have one shape."""
    if actual.shape != expected.shape:
        raise ValueError(f"compared blocks of different shapes: the answer's {actual.shape}, the expected "
                         f"{expected.shape}")


def failing_draws(actual: Sequence[Sequence[np.ndarray]], expected: Sequence[Sequence[np.ndarray]],
                  atols: Sequence[float] = (), floors: Sequence[float] = ()) -> list[int]:
    """The draws on which some block of `actual` is not `close` to `expected` (each: the blocks
    of every draw; `atols` and `floors`, each draw's own, as `close`), found with one stacked
    comparison per block. Blocks whose shapes or dtypes vary between draws do not stack: then
    every draw is returned, to be looked at one by one."""
    n = len(expected)
    bad = np.zeros(n, dtype=bool)
    for k in range(len(expected[0]) if n else 0):
        gots, wants = [a[k] for a in actual], [e[k] for e in expected]
        if len({g.shape for g in gots} | {w.shape for w in wants}) != 1 or len({g.dtype for g in gots}) != 1:
            return list(range(n))
        bad |= ~close_per_draw(np.stack(gots), np.stack(wants), atols, floors)
    return [int(d) for d in np.flatnonzero(bad)]
