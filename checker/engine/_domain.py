"""Puzzle guards: the conditions every draw of a puzzle is kept inside, where `f` would otherwise
have no derivative (a catalog entry's `guard = "..."`).

Defined once, here, for everything that draws inputs for a puzzle: the checker's sampler
(`_sampling`), the mutation prover's independent dense draws (`checker/authoring/mutation`) and
the corpus tests. They must agree: an input the checker never draws is outside the puzzle's
domain, so a mistake shown only there is no mistake inside the contract, and a test's draw the
checker would refuse proves nothing about the checker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

# Relative: how clearly a max or an argmin must win. Float64 tells values 1e-6 apart with ten
# orders of magnitude to spare, so a rounding error never hands the max (and the whole gradient)
# to the runner-up; and the checker's near-ties of a guarded max start at 1.05e-6
# (`_sampling.GUARD_TIES`), just outside it.
GUARD_GAP = 1e-6


def top_two_apart(scores: np.ndarray, gap: float | np.ndarray) -> np.ndarray:
    """Per draw (the first axis), whether the largest entry of every row (the last axis) beats
    the runner-up by at least `gap` (a number, or one per draw)."""
    top = np.sort(scores, axis=-1)
    apart = top[..., -1] - top[..., -2] >= np.reshape(gap, (-1,) + (1,) * (top.ndim - 2))
    result: np.ndarray = np.asarray(apart.reshape(len(scores), -1).all(axis=1))
    return result


def _scale(values: np.ndarray) -> np.ndarray:
    """Per draw, the largest magnitude of `values` (never 0, so a relative gap stays a gap)."""
    scale: np.ndarray = np.maximum(np.max(np.abs(values.reshape(len(values), -1)), axis=1), 1e-300)
    return scale


def unique_max(values: Sequence[np.ndarray]) -> np.ndarray:
    """tensor_lookup_2d, per draw: the masked cell that wins the max of each channel wins it
    clearly. `values`: arr, x, y with the draw axis first."""
    arr, x, y = (np.asarray(v, np.float64) for v in values[:3])
    masked = x[:, :, None, None] * y[:, None, :, None] * arr
    channels = np.moveaxis(masked, -1, 1).reshape(len(arr), masked.shape[-1], -1)
    return top_two_apart(channels, GUARD_GAP * _scale(masked))


def asymmetric(values: Sequence[np.ndarray]) -> np.ndarray:
    """asymmetrical_vectored_lookup, per draw: the argmax of each row of k, and the entry of each
    row of v nearest the backward pass's target, are both unambiguous. `values`: v, k, g with the
    draw axis first."""
    v, k, g = (np.asarray(a, np.float64) for a in values[:3])
    picked = np.take_along_axis(v, np.argmax(k, axis=-1)[..., None], axis=-1)[..., 0]
    distance = (v - (picked - g)[..., None]) ** 2
    result: np.ndarray = np.logical_and(top_two_apart(k, GUARD_GAP),
                                        top_two_apart(-distance, GUARD_GAP * _scale(distance)))
    return result


# The catalog's guard names (`_catalog.GUARDS`), each a test over a stack of draws.
GUARDS: dict[str, Callable[[Sequence[np.ndarray]], np.ndarray]] = {"unique_max": unique_max, "asymmetric": asymmetric}


def admits(guard: str, values: Sequence[np.ndarray]) -> np.ndarray:
    """Per draw, whether the guard named `guard` admits it: `values` holds every argument of the
    puzzle (in the catalog's order) with the draw axis first."""
    return GUARDS[guard](values)


def holds(guard: str, values: Sequence[np.ndarray]) -> bool:
    """Whether the guard named `guard` admits one draw (`values`: every argument, no draw axis)."""
    return bool(admits(guard, [np.asarray(v)[None] for v in values])[0])
