"""Seeded input draws for a puzzle: random draws from each argument's domain, then edge draws.

The edge draws are the inputs that expose the classic mistakes: an exact zero entry (dividing by
x), two zero entries, large and small magnitudes; for indices, exact integers (where a
`divide_no_nan` gives t = 0) and halves (where rounding goes to even); one-hot masks; repeated
indices. Each argument names the edges it takes part in (catalog). No draw lands where f has no
derivative: an argument that avoids "zero" never holds an entry near 0, one that avoids "ties"
never holds two entries close together, and a puzzle's guard keeps kinks that only show in f
itself (which cell wins a max) away too. Same seed, same draws.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from checker._catalog import EDGES, FLOAT_DTYPES, GENERIC_EDGES, INT_DTYPES, Arg, Puzzle
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


def _one_hot(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # A one-hot vector along the last axis, at a random place in each row.
    rows = values.reshape(-1, values.shape[-1]) if values.ndim else values.reshape(1, 1)
    out = np.zeros_like(rows)
    out[np.arange(len(rows)), rng.integers(0, rows.shape[1], size=len(rows))] = 1
    return out.reshape(values.shape)


def _repeated(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # Every entry the same index: what a scatter-add must accumulate.
    flat = values.reshape(-1)
    return np.full_like(values, flat[rng.integers(0, flat.size)] if flat.size else 0)


# label -> (how to make an argument's values from a random draw of it, how it scales distances,
# the fewest entries an argument needs for the edge to say anything new). The lattice edges,
# "integer" and "half-integer", are several draws each, made by `_lattice_draws`.
_EDGES: dict[str, tuple[_Edge, float, int]] = {
    "zero entry": (_zero_entries(1), 1.0, 1),
    "two zero entries": (_zero_entries(2), 1.0, 2),
    "large magnitudes": (lambda v, rng: v * 100, 100.0, 1),
    "small magnitudes": (lambda v, rng: v * 1e-3, 1e-3, 1),
    "one-hot": (_one_hot, 1.0, 1),
    "repeated": (_repeated, 1.0, 2),
}


_LATTICE = ("integer", "half-integer")


def _lattice(label: str, arg: Arg) -> np.ndarray:
    """Every integer, or every k + 0.5, inside an argument's domain."""
    if label == "integer":
        return np.arange(np.ceil(arg.low), np.floor(arg.high) + 1)
    return np.arange(np.floor(arg.low), np.ceil(arg.high)) + 0.5  # k + 0.5 <= high


def _lattice_draws(puzzle: Puzzle, rng: np.random.Generator, label: str, number: int) -> list[Draw]:
    """Draws putting each index entry on every point of its lattice in turn.

    A mistake that shows at one integer only (a clip that hides it at the ends, a rounding rule
    that differs at 0.5 but not at 1.5) is met on every seed, not on the seeds whose one draw
    happens to land there. Each entry of a vector starts at its own random place in the cycle.
    """
    takers = {k: _lattice(label, a) for k, a in enumerate(puzzle.args) if label in a.edge_names}
    if not takers:
        return []
    count = max(len(points) for points in takers.values())
    starts = {k: rng.integers(0, len(points), size=puzzle.args[k].shape) for k, points in takers.items()}
    result = []
    for i in range(count):
        for _ in range(_EDGE_TRIES):
            values = [_random(a, rng) for a in puzzle.args]
            for k, points in takers.items():
                values[k] = np.asarray(points[(starts[k] + i) % len(points)]).astype(puzzle.args[k].dtype)
            if _valid(puzzle, tuple(values)):
                result.append(Draw(f"{label} draw {i + 1}", tuple(values)))
                break
    return result or [_random_draw(puzzle, rng, number)]
_EDGE_TRIES = 100


def _min_gap(arg: Arg) -> float:
    # Far enough from a kink or a tie that float32 rounding cannot cross it.
    return (arg.high - arg.low) * 1e-4


def _random(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    if arg.static is not None:
        return np.asarray(arg.static, dtype=arg.dtype)
    if arg.dtype in INT_DTYPES:
        return rng.integers(int(arg.low), int(arg.high) + 1, size=arg.shape).astype(arg.dtype)
    if arg.sampler == "simplex":
        # Dirichlet(1): uniform over probability vectors; no entry is exactly 0.
        return rng.dirichlet(np.ones(arg.shape[-1]), size=arg.shape[:-1]).astype(arg.dtype)
    for _ in range(1000):
        values = rng.uniform(arg.low, arg.high, size=arg.shape)
        if _allowed(arg, values, _min_gap(arg)):
            return values.astype(arg.dtype)
    raise RuntimeError(f"could not draw argument {arg.name} away from {arg.avoid} in 1000 tries")


def _random_count(puzzle: Puzzle) -> int:
    # A one-entry argument gets 60 random draws, a ten-entry one 6: every entry is tried at
    # VALUES_PER_ENTRY points either way, so a mistake confined to part of the domain is met.
    sizes = [max(1, int(np.prod(a.shape))) for a in puzzle.args if a.dtype in FLOAT_DTYPES]
    return max(RANDOM_DRAWS, -(-VALUES_PER_ENTRY // min(sizes, default=VALUES_PER_ENTRY)))


def _stratified(arg: Arg, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """`n` random values of `arg`, each entry taking one value in each of n equal slices of the
    domain (in shuffled order), so no slice wider than two of them goes unvisited."""
    if arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform":
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
    # sort's argument avoids. It applies to the arguments that name it and have at least
    # `min_size` entries (two zeros in a one-entry argument are just one zero). Where nothing
    # fits, the slot gets a random draw instead.
    takes = [label in a.edge_names and int(np.prod(a.shape)) >= min_size for a in puzzle.args]
    for _ in range(_EDGE_TRIES if any(takes) else 0):
        base = tuple(_random(a, rng) for a in puzzle.args)
        values = tuple(np.asarray(edge(v, rng)).astype(a.dtype) if t else v for a, v, t in zip(puzzle.args, base, takes))
        if _valid(puzzle, values, scale):
            return Draw(label, values)
    return _random_draw(puzzle, rng, number)


def _valid(puzzle: Puzzle, values: tuple[np.ndarray, ...], scale: float = 1.0) -> bool:
    """Every argument inside its domain's rules, and the puzzle's guard passes."""
    if not all(_allowed(a, v, _min_gap(a) * scale) for a, v in zip(puzzle.args, values) if a.dtype in FLOAT_DTYPES):
        return False
    return puzzle.guard is None or _GUARDS[puzzle.guard](puzzle, values)


def _random_draw(puzzle: Puzzle, rng: np.random.Generator, number: int) -> Draw:
    for _ in range(1000):
        values = tuple(_random(a, rng) for a in puzzle.args)
        if _valid(puzzle, values):
            return Draw(f"random draw {number}", values)
    raise RuntimeError(f"{puzzle.name}: no draw passed the guard {puzzle.guard!r} in 1000 tries")


def _top_two_apart(scores: np.ndarray, gap: float) -> bool:
    """The largest entry of each row of `scores` beats the runner-up by at least `gap`."""
    top = np.sort(scores.reshape(scores.shape[0], -1), axis=1)
    return bool(np.all(top[:, -1] - top[:, -2] >= gap))


def _unique_max(puzzle: Puzzle, values: tuple[np.ndarray, ...]) -> bool:
    # tensor_lookup_2d: the masked cell that wins the max, per channel, must win clearly, or a
    # rounding error could hand the max (and the whole gradient) to the runner-up.
    arr, x, y = (np.asarray(v, np.float64) for v in values[:3])
    masked = x[:, None, None] * y[None, :, None] * arr
    channels = np.moveaxis(masked, -1, 0)
    return _top_two_apart(channels, 1e-3 * float(np.max(np.abs(arr))))


def _asymmetric(puzzle: Puzzle, values: tuple[np.ndarray, ...]) -> bool:
    # asymmetrical_vectored_lookup: the argmax of each k row, and the value nearest to the
    # backward pass's target, must both be unambiguous.
    v, k, g = (np.asarray(a, np.float64) for a in values[:3])
    if not _top_two_apart(k, 1e-3):
        return False
    picked = v[np.arange(len(v)), np.argmax(k, axis=-1)]
    distance = (v - (picked - g)[:, None]) ** 2
    return _top_two_apart(-distance, 1e-3)


_GUARDS = {"unique_max": _unique_max, "asymmetric": _asymmetric}


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
    if puzzle.guard is not None:  # a draw the guard refuses is drawn again
        result = [d if _valid(puzzle, d.values) else _random_draw(puzzle, rng, k + 1) for k, d in enumerate(result)]
    # Every puzzle has a slot for each generic edge (a random draw when no argument takes it),
    # so the autodiff puzzles' draws stay what they were; other edges only where an argument names them.
    named = {label for a in puzzle.args for label in a.edge_names}
    for label in EDGES:  # the catalog's order
        if label in _LATTICE:
            result += _lattice_draws(puzzle, rng, label, len(result) + 1) if label in named else []
        elif label in named or label in GENERIC_EDGES:
            edge, scale, min_size = _EDGES[label]
            result.append(_edge_draw(puzzle, rng, label, edge, scale, min_size, len(result) + 1))
    return tuple(result)



def stacked(batch: tuple[Draw, ...]) -> tuple[np.ndarray, ...]:
    """The draws as one array per argument, the draw index first (for a vmapped oracle)."""
    return tuple(np.stack(column) for column in zip(*(d.values for d in batch)))
