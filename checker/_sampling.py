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

RANDOM_DRAWS = 6
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


# label -> (how to make an argument's values from a random draw of it, how it scales distances)
_EDGES: dict[str, tuple[_Edge, float]] = {
    "zero entry": (_zero_entries(1), 1.0),
    "two zero entries": (_zero_entries(2), 1.0),
    "large magnitudes": (lambda v, rng: v * 100, 100.0),
    "small magnitudes": (lambda v, rng: v * 1e-3, 1e-3),
}
_EDGE_TRIES = 100


def _min_gap(arg: Arg) -> float:
    # Far enough from a kink or a tie that float32 rounding cannot cross it.
    return (arg.high - arg.low) * 1e-3


def _random(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    if not arg.differentiable:
        return rng.integers(int(arg.low), int(arg.high) + 1, size=arg.shape).astype(arg.dtype)
    for _ in range(1000):
        values = rng.uniform(arg.low, arg.high, size=arg.shape)
        if _allowed(arg, values, _min_gap(arg)):
            return values.astype(arg.dtype)
    raise RuntimeError(f"could not draw argument {arg.name} away from {arg.avoid} in 1000 tries")


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


def _edge_draw(puzzle: Puzzle, rng: np.random.Generator, label: str, edge: _Edge, scale: float, number: int) -> Draw:
    # An edge draw must respect every argument's domain too: two zero entries are a tie, which
    # sort's argument avoids. Where no try fits, the slot gets a random draw instead.
    for _ in range(_EDGE_TRIES):
        base = tuple(_random(a, rng) for a in puzzle.args)
        values = tuple(edge(v, rng).astype(a.dtype) if a.differentiable else v for a, v in zip(puzzle.args, base))
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
    result = [
        Draw(f"random draw {k + 1}", tuple(_random(a, rng) for a in puzzle.args))
        for k in range(RANDOM_DRAWS)
    ]
    for label, (edge, scale) in _EDGES.items():
        result.append(_edge_draw(puzzle, rng, label, edge, scale, len(result) + 1))
    return tuple(result)


def stacked(batch: tuple[Draw, ...]) -> tuple[np.ndarray, ...]:
    """The draws as one array per argument, the draw index first (for a vmapped oracle)."""
    return tuple(np.stack(column) for column in zip(*(d.values for d in batch)))
