"""Segments through a puzzle's domain, and where an entry of the expected Jacobian crosses zero
along one: the zero search's primitives (`_zero_search`). A segment runs between two random
draws (the domain is a box or a product of simplices, so it stays inside); each sign change of
an entry on a grid of it is bisected to adjacent floats and polished (`probe`); the Jacobian is
evaluated by one jitted, vmapped program per puzzle, in batches of one size (one compilation).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from checker.engine._catalog import FLOAT_DTYPES, Arg, Puzzle
from checker.engine._draw import Draw, stacked

LINES = 4  # random segments through the domain


GRID = 24  # points per segment where signs are compared


BISECTIONS = 60  # halvings of a bracket: [0, 1] shrinks to adjacent floats well before


# How close to 0 a kept entry is, in units of float64's epsilon times its block's largest entry:
# far inside the contract's 1e-12, so an answer off by 1e-9 relatively is refused there.
ZERO_ULPS = 64


@dataclass(frozen=True)
class Sampler:
    """The sampler's functions the search draws its segments' ends with (`_sampling.SAMPLER`)."""

    dtype: Callable[[Arg], str]
    random: Callable[[Arg, np.random.Generator], np.ndarray]
    valid: Callable[..., bool]  # (puzzle, values, structured=False): whether f's domain holds them


# Where every float argument is one entry: the band of magnitudes two more lines run across,
# and ALONE_SHORT shorter ones inside it, ALONE_WIDTH long. Across the whole band the grid's
# points are 39 apart, where cos(0.8 x)'s zeros fall about 10 to a step, an even number: few
# sign changes showed, and the zeros kept were all at 0 (red team RT39's F3, `4 * x / 5` for
# `0.8 * x` passed). On the short lines the points are 0.43 apart, closer than the zeros of
# cos(6 x), the highest frequency of the catalog.
ALONE_BAND = (1e2, 1e3)


ALONE_SHORT = 4


ALONE_WIDTH = 10.0


def alone(puzzle: Puzzle) -> bool:
    """Whether every float argument of `puzzle` is one plain entry (`cos`)."""
    floats = [a for a in puzzle.args if a.dtype in FLOAT_DTYPES and a.static is None]
    return bool(floats) and all(int(np.prod(a.shape)) == 1 and a.sampler == "uniform" and a.edges is None
                                for a in floats)


def segments(puzzle: Puzzle, sampler: Sampler, count: int = LINES,
           salt: int = 22) -> list[tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]]:
    rng = np.random.default_rng([zlib.crc32(puzzle.name.encode()), zlib.crc32(repr(puzzle.variant).encode()), salt])
    lines = []
    for _ in range(count):
        ends = []
        for _ in range(2):
            for _ in range(100):
                values = tuple(np.asarray(sampler.random(a, rng)).astype(sampler.dtype(a)) for a in puzzle.args)
                if sampler.valid(puzzle, values):
                    break
            ends.append(values)
        start, end = ends
        # Integer and static arguments keep the start's value all along the segment.
        end = tuple(e if a.dtype in FLOAT_DTYPES and a.static is None else s
                    for a, s, e in zip(puzzle.args, start, end))
        lines.append((start, end))
    if alone(puzzle) and count == LINES:
        start, _ = lines[0]
        spans = [(sign * ALONE_BAND[0], sign * ALONE_BAND[1]) for sign in (1.0, -1.0)]
        for _ in range(ALONE_SHORT):
            near = float(rng.choice([-1.0, 1.0])) * float(np.exp(rng.uniform(*np.log(ALONE_BAND))))
            spans.append((near, near + float(np.sign(near)) * ALONE_WIDTH))
        for span in spans:
            low, high = (tuple(np.full(a.shape, edge).astype(v.dtype) if a.dtype in FLOAT_DTYPES and a.static is None
                               else v for a, v in zip(puzzle.args, start)) for edge in span)
            lines.append((low, high))
    return lines


def point_at(puzzle: Puzzle, line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]],
        t: float) -> tuple[np.ndarray, ...]:
    start, end = line
    return tuple(
        (s + t * (e - s)).astype(s.dtype) if a.dtype in FLOAT_DTYPES and a.static is None else s
        for a, s, e in zip(puzzle.args, start, end)
    )


def jacobian(puzzle: Puzzle, reverse: bool = False) -> Any:
    """A jitted function: stacked dynamic inputs -> the expected blocks (leaves), draw axis first;
    with `reverse`, jax.jacrev's instead (None for a backward pass)."""
    import jax

    from checker.engine._oracles import _oracle
    from checker.engine._settings import FAST_COMPILE

    one: Any
    if reverse:
        if puzzle.is_vjp:
            return None
        one = jax.jacrev(puzzle.on_dynamic(puzzle.f), puzzle.dynamic_argnums())
    elif puzzle.is_vjp:
        pair = _oracle(puzzle)

        def first(*args: Any) -> Any:
            return pair(*args)[0]

        one = first
    else:
        one = jax.jacfwd(puzzle.on_dynamic(puzzle.f), puzzle.dynamic_argnums())
    batched: Any = jax.vmap(one)
    return jax.jit(lambda xs: jax.tree_util.tree_leaves(batched(*xs)), compiler_options=FAST_COMPILE)


def evaluate(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]]) -> list[np.ndarray]:
    stack = stacked(tuple(Draw("", p) for p in points))
    return [np.asarray(leaf, np.float64).reshape(len(points), -1) for leaf in program(puzzle.dynamic(stack))]


Line = tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]  # a segment's two ends, a value per argument


def steps() -> np.ndarray:
    return np.linspace(0.0, 1.0, GRID)


@dataclass(frozen=True)
class Crossing:
    """A point of a line where one entry of the expected Jacobian is within ZERO_ULPS of 0."""

    point: tuple[np.ndarray, ...]
    block: int
    entry: int
    line: int
    noise: float  # the entry's rounding noise there (`noise_of`)


def crossings(program: Any, puzzle: Puzzle, sampler: Sampler, lines: list[Any],
               grid: list[np.ndarray]) -> list[Crossing]:
    """Where entries of the expected Jacobian cross zero along `lines` (`grid`: the blocks at
    GRID points of each), bisected to adjacent floats, spread over blocks and entries."""
    ts = steps()
    batch = len(lines) * GRID  # every call has this many points: one compilation
    # Brackets (line, grid step, block, entry) where an entry changes sign between grid points.
    brackets: list[tuple[int, int, int, int]] = []
    for b, leaf in enumerate(grid):
        values = leaf.reshape(len(lines), GRID, -1)
        change = (values[:, :-1] * values[:, 1:] < 0) & np.isfinite(values[:, :-1]) & np.isfinite(values[:, 1:])
        brackets += [(int(line), int(step), b, int(entry)) for line, step, entry in zip(*np.nonzero(change))]
    if not brackets:
        return []
    # Spread the brackets over blocks and entries: each block in turn, a different entry each time.
    rng = np.random.default_rng([zlib.crc32(puzzle.name.encode()), 7])
    order = rng.permutation(len(brackets))
    by_block: dict[int, list[tuple[int, int, int, int]]] = {}
    for i in order:
        by_block.setdefault(brackets[i][2], []).append(brackets[i])
    chosen: list[tuple[int, int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    while len(chosen) < batch and any(by_block.values()):
        for b in sorted(by_block):
            if by_block[b] and len(chosen) < batch:
                c = by_block[b].pop(0)
                if (c[2], c[3]) not in seen or not any(x[2] == b and (x[2], x[3]) not in seen for x in by_block[b]):
                    chosen.append(c)
                    seen.add((c[2], c[3]))
                else:
                    by_block[b].append(c)
    lo = np.array([ts[c[1]] for c in chosen])
    hi = np.array([ts[c[1] + 1] for c in chosen])
    sign_lo = np.array([np.sign(grid[c[2]][c[0] * GRID + c[1], c[3]]) for c in chosen])
    for _ in range(BISECTIONS):
        mid = lo + (hi - lo) / 2
        if np.all((mid == lo) | (mid == hi)):
            break
        value = _entries(program, puzzle, lines, chosen, mid, batch)
        same = np.sign(value) == sign_lo
        lo, hi = np.where(same, mid, lo), np.where(same, hi, mid)
    # Each bracket's lower end polished (`probe`): the step where the entry is smallest is kept
    # where it is within ZERO_ULPS of its block's largest entry. A block of one entry is its own
    # largest: there its scale is the largest it gets along the line.
    along = [np.max(np.abs(leaf.reshape(len(lines), GRID, -1)), axis=(1, 2)) for leaf in grid]
    probed = probe(program, puzzle, [point_at(puzzle, lines[c[0]], float(t)) for c, t in zip(chosen, lo)],
                    [direction_of(puzzle, lines[c[0]]) for c in chosen], [c[2] for c in chosen],
                    [c[3] for c in chosen], batch)
    kept: list[Crossing] = []
    for c, (points, values, scales) in zip(chosen, probed):
        for n in smallest_first(values):
            scale = float(along[c[2]][c[0]]) if grid[c[2]].shape[1] == 1 else float(scales[n])
            if not np.isfinite(scale) or scale == 0.0 or abs(values[n]) > ZERO_ULPS * np.finfo(np.float64).eps * scale:
                break
            if sampler.valid(puzzle, points[n], structured=True):
                if not any(np.array_equal(points[n][0], k.point[0]) for k in kept):
                    kept.append(Crossing(points[n], c[2], c[3], c[0], noise_of(values)))
                break
    return kept


# Around each bisected zero, the entry at POLISH steps either side along its line (a step moves
# the input's largest entry by about half an ulp): the step where it is smallest is kept, and a
# zero only where that is within ZERO_ULPS of its block. Bisection stops at adjacent floats of
# the line's parameter, where the entry is whatever rounding leaves there: at cos's zeros near
# 500 that was often more than ZERO_ULPS, so few were kept, and at gelu's it was 12 to 58 ulps
# of the block (red team RT39: a sqrt(2/pi) of 13 digits and cos(0.8 x) as cos(4 x / 5) passed).
# The same values give the entry's rounding noise there (`noise_of`): what jacfwd's own arithmetic
# adds, and about what a right answer's does.
POLISH = 24


def noise_of(values: np.ndarray) -> float:
    """The rounding noise of `values` (the entry along 2 POLISH + 1 steps): the spread of their
    second differences (0 along a straight line), without the largest few, where the entry
    jumps (an index crossing an integer), scaled to a standard deviation."""
    second = np.sort(np.abs(np.diff(values, 2)))
    second = second[np.isfinite(second)][:-NOISE_JUMPS]
    # For independent noise of deviation s, a second difference has deviation s sqrt(6), and
    # its mean absolute value is sqrt(2 / pi) times that.
    return float(np.mean(second)) / (np.sqrt(2 / np.pi) * np.sqrt(6.0)) if second.size else float("inf")


NOISE_JUMPS = 4  # second differences left out as jumps: a jump spoils two


def probe(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]], direction: list[tuple[np.ndarray, ...]],
           block: list[int], entry: list[int],
           batch: int) -> list[tuple[list[tuple[np.ndarray, ...]], np.ndarray, np.ndarray]]:
    """Per point, the 2 POLISH + 1 points stepped along its direction, the entry at each, and
    its block's largest entry at each."""
    stepped = [[tuple((v + o * d).astype(v.dtype) if np.issubdtype(v.dtype, np.floating) else v
                      for v, d in zip(point, way)) for o in _offsets(point, way)]
               for point, way in zip(points, direction)]
    leaves = evaluate_all(program, puzzle, [q for group in stepped for q in group], batch)
    owners = [n for n in range(len(points)) for _ in range(2 * POLISH + 1)]
    values = [float(leaves[block[n]][i, entry[n]]) for i, n in enumerate(owners)]
    scales = [float(np.max(np.abs(leaves[block[n]][i]), initial=0.0)) for i, n in enumerate(owners)]
    shape = (len(points), 2 * POLISH + 1)
    return list(zip(stepped, np.reshape(values, shape), np.reshape(scales, shape)))


def smallest_first(values: np.ndarray) -> list[int]:
    """The steps by the entry's size there, the nearest the middle first among equals (an entry
    exactly 0 on one side of a jump stays next to the jump)."""
    size = np.abs(np.where(np.isfinite(values), values, np.inf))
    middle = np.abs(np.arange(len(values)) - len(values) // 2)
    return [int(n) for n in np.lexsort((middle, size))]


def _offsets(point: tuple[np.ndarray, ...], direction: tuple[np.ndarray, ...]) -> np.ndarray:
    """Steps along `direction` that move the input's largest entry by half an ulp or so each."""
    floats = [np.abs(np.asarray(v, np.float64)).reshape(-1) for v in point
              if np.issubdtype(np.asarray(v).dtype, np.floating)]
    largest = max((float(np.max(f, initial=0.0)) for f in floats), default=0.0)
    way = max((float(np.max(np.abs(d), initial=0.0)) for d in direction), default=0.0)
    step = 0.5 * np.finfo(np.float64).eps * largest / way if way > 0 and largest > 0 else 0.0
    return np.arange(-POLISH, POLISH + 1, dtype=np.float64) * step


def direction_of(puzzle: Puzzle, line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    start, end = line
    return tuple(np.asarray(e, np.float64) - np.asarray(s, np.float64)
                 if a.dtype in FLOAT_DTYPES and a.static is None else np.zeros(np.shape(s))
                 for a, s, e in zip(puzzle.args, start, end))


def evaluate_all(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]], batch: int) -> list[np.ndarray]:
    """`evaluate` on any number of points, `batch` at a time (every call one size: one compilation)."""
    parts = []
    for first in range(0, len(points), batch):
        chunk = points[first:first + batch]
        parts.append([leaf[: len(chunk)] for leaf in evaluate(program, puzzle, padded_to(chunk, batch))])
    return [np.concatenate(leaves) for leaves in zip(*parts)]


def padded_to(points: list[tuple[np.ndarray, ...]], batch: int) -> list[tuple[np.ndarray, ...]]:
    return points + [points[-1]] * (batch - len(points))


def _entries(program: Any, puzzle: Puzzle, lines: list[Any], chosen: list[tuple[int, int, int, int]], t: np.ndarray,
             batch: int) -> np.ndarray:
    points = [point_at(puzzle, lines[c[0]], float(x)) for c, x in zip(chosen, t)]
    leaves = evaluate(program, puzzle, padded_to(points, batch))
    return np.array([leaves[c[2]][i, c[3]] for i, c in enumerate(chosen)])


def label_of(puzzle: Puzzle, block: int, entry: int, how: str = "crossing zero") -> str:
    shape = puzzle.jac_shapes()[block]
    where = ", ".join(str(int(i)) for i in np.unravel_index(entry, shape)) if shape else ""
    return f"an entry {how} (block {block}, entry [{where}])"
