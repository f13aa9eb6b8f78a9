"""Seeded input draws for a puzzle: random draws from each argument's domain, then edge draws.

The edge draws are the inputs that expose the classic mistakes: an exact zero entry (dividing by
x), two zero entries, large and small magnitudes. No draw lands where f has no derivative: an
argument that avoids "zero" never holds an entry near 0, one that avoids "ties" never holds two
entries close together. Same seed, same draws.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from checker._catalog import Arg, Puzzle
from checker._settings import DEFAULT_SEED

RANDOM_DRAWS = 6  # at least; more when an argument is small (see `_random_count`)
VALUES_PER_ENTRY = 60  # random values each entry of each argument takes across the random draws
# Edge draws: (label, how to make one argument's values from a random draw of it).
_Edge = Callable[[np.ndarray, np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class Draw:
    """One input to `f` and `jac`: a value per argument, and what kind of draw it is."""

    label: str
    values: tuple[np.ndarray, ...]


def _zero_entries(count: int) -> _Edge:
    def make(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        out: np.ndarray = values.copy()
        flat = out.reshape(-1)
        flat[rng.choice(flat.size, size=min(count, flat.size), replace=False)] = 0
        return out

    return make


# label -> (how to make an argument's values from a random draw of it, how it scales distances,
# the fewest entries an argument needs for the edge to say anything new)
_EDGES: dict[str, tuple[_Edge, float, int]] = {
    "zero entry": (_zero_entries(1), 1.0, 1),
    "two zero entries": (_zero_entries(2), 1.0, 2),
    "large magnitudes": (lambda v, rng: v * 100, 100.0, 1),
    "small magnitudes": (lambda v, rng: v * 1e-3, 1e-3, 1),
}
_EDGE_TRIES = 100


def _min_gap(arg: Arg) -> float:
    # Far enough from a kink or a tie that float32 rounding cannot cross it.
    return (arg.high - arg.low) * 1e-4


def _random(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    if not arg.differentiable:
        return rng.integers(int(arg.low), int(arg.high) + 1, size=arg.shape).astype(arg.dtype)
    for _ in range(1000):
        values = rng.uniform(arg.low, arg.high, size=arg.shape)
        if _allowed(arg, values, _min_gap(arg)):
            return values.astype(arg.dtype)
    raise RuntimeError(f"could not draw argument {arg.name} away from {arg.avoid} in 1000 tries")


def _random_count(puzzle: Puzzle) -> int:
    # A one-entry argument gets 60 random draws, a ten-entry one 6: every entry is tried at
    # VALUES_PER_ENTRY points either way, so a mistake confined to part of the domain is met.
    sizes = [max(1, int(np.prod(a.shape))) for a in puzzle.args if a.differentiable]
    return max(RANDOM_DRAWS, -(-VALUES_PER_ENTRY // min(sizes, default=VALUES_PER_ENTRY)))


def _stratified(arg: Arg, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """`n` random values of `arg`, each entry taking one value in each of n equal slices of the
    domain (in shuffled order), so no slice wider than two of them goes unvisited."""
    if not arg.differentiable:
        return [_random(arg, rng) for _ in range(n)]
    size = max(1, int(np.prod(arg.shape)))
    strata = rng.permuted(np.tile(np.arange(n), (size, 1)), axis=1).T
    width = (arg.high - arg.low) / n
    result = []
    for k in range(n):
        for _ in range(1000):
            values = (arg.low + width * (strata[k] + rng.uniform(size=size))).reshape(arg.shape)
            if _allowed(arg, values, _min_gap(arg)):
                break
        else:
            values = _random(arg, rng)
        result.append(values.astype(arg.dtype))
    return result


def _allowed(arg: Arg, values: np.ndarray, gap: float) -> bool:
    flat = np.sort(values.reshape(-1))
    if "zero" in arg.avoid and np.min(np.abs(flat), initial=np.inf) < gap:
        return False
    if "ties" in arg.avoid and flat.size > 1 and np.min(np.diff(flat)) < gap:
        return False
    return True


def seed_for(puzzle: Puzzle, seed: int) -> np.random.Generator:
    """The generator for one puzzle's draws: stable across runs, machines and Python versions."""
    return np.random.default_rng([seed, zlib.crc32(puzzle.name.encode())])


def _edge_draw(puzzle: Puzzle, rng: np.random.Generator, label: str, edge: _Edge, scale: float, min_size: int, number: int) -> Draw:
    # An edge draw must respect every argument's domain too: two zero entries are a tie, which
    # sort's argument avoids. It applies to the arguments with at least `min_size` entries (two
    # zeros in a one-entry argument are just one zero). Where nothing fits, the slot gets a
    # random draw instead.
    takes = [a.differentiable and int(np.prod(a.shape)) >= min_size for a in puzzle.args]
    for _ in range(_EDGE_TRIES if any(takes) else 0):
        base = tuple(_random(a, rng) for a in puzzle.args)
        values = tuple(edge(v, rng).astype(a.dtype) if t else v for a, v, t in zip(puzzle.args, base, takes))
        if all(_allowed(a, v, _min_gap(a) * scale) for a, v in zip(puzzle.args, values) if a.differentiable):
            return Draw(label, values)
    return Draw(f"random draw {number}", tuple(_random(a, rng) for a in puzzle.args))


def draws(puzzle: Puzzle, seed: int = DEFAULT_SEED) -> tuple[Draw, ...]:
    """The input draws for `puzzle`: at least ten, random ones first, then edge draws.

    An edge draw that an argument's domain forbids (a zero entry where f has a kink at zero)
    is replaced by one more random draw, so every puzzle gets the same number of draws.
    Edge draws apply to every floating argument at once.
    """
    rng = seed_for(puzzle, seed)
    n = _random_count(puzzle)
    columns = [_stratified(a, rng, n) for a in puzzle.args]
    result = [Draw(f"random draw {k + 1}", tuple(column[k] for column in columns)) for k in range(n)]
    for label, (edge, scale, min_size) in _EDGES.items():
        result.append(_edge_draw(puzzle, rng, label, edge, scale, min_size, len(result) + 1))
    return tuple(result)


def stacked(batch: tuple[Draw, ...]) -> tuple[np.ndarray, ...]:
    """The draws as one array per argument, the draw index first (for a vmapped oracle)."""
    return tuple(np.stack(column) for column in zip(*(d.values for d in batch)))
