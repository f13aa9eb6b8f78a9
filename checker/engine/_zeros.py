"""Draws found from the expected Jacobian itself: where its entries cross zero, and which inputs
compete for an output.

A constant rounded to nine digits is right to 1e-9 relatively everywhere, and only wrong where
an entry of the Jacobian crosses zero: there the contract (`_tolerance`) allows 1e-12 of the
block's largest entry, and the rounding error is larger. Random draws never land there. So,
per puzzle and variant, `jax.jacfwd` (float64) is evaluated along a few lines through the
domain (segments between two random draws: the domain is a box or a product of simplices, so
they stay inside it), each entry's sign changes are bracketed on a grid and bisected down to
adjacent floats, and the inputs where an entry is within a few ulps of its block's largest
entry times float64's epsilon (while that largest entry is not 0) are kept. Integer arguments
keep their value along a line.

A block of one entry (`cos`'s -f sin(f x)) is its own largest entry: there the scale is the
largest the entry gets along the line, and a zero is kept where the entry is within ZERO_ULPS of
float64's epsilon times that. Where every float argument is one entry, two more lines run
across the `large` magnitudes beyond the domain (ALONE_BAND, either sign), which the sampler
draws too: `cos`'s zeros at multiples of pi, where an answer that reduces the angle by
`k * np.pi` is wrong (red team RT24). `_sampling` draws a one-entry argument itself at 1e-12
to 1e-9 and 1e-41 to 1e-39, both signs, which reaches the zero at 0.

The same evaluations give each output's support: which entries of an argument reach it at some
point of the lines. Entries in the same support compete for that output (the window of a max
pool); `_sampling` puts near-ties inside one such group.

Both are seed-independent (the lines come from a generator keyed by the puzzle and variant
alone): the zeros of the Jacobian are a property of `f`, not of a seed, so every seed checks
them, a mistake found there is found on every seed, and they are computed once per puzzle and
variant and cached beside the expected Jacobians (`JACPUZZLES_CACHE`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine import _numerics
from checker.engine._catalog import FLOAT_DTYPES, Arg, Puzzle
from checker.engine._draw import Draw, stacked

LINES = 4  # random segments through the domain
GRID = 24  # points per segment where signs are compared
ZEROS = 6  # at most this many zero-crossing draws per puzzle and variant
# ... and this many where every float argument is one entry (`cos`): its zeros are many (every
# multiple of pi over the frequency across ALONE_BAND), and at each the entry is the angle's
# rounding itself, which another rounding of the angle (`x / 5` for `0.2 * x`) misses at about a
# third of them: with 6 kept, three variants of 18 kept none such (red team RT39's F3).
ZEROS_ALONE = 16
BISECTIONS = 60  # halvings of a bracket: [0, 1] shrinks to adjacent floats well before
# How close to 0 a kept entry is, in units of float64's epsilon times its block's largest entry:
# far inside the contract's 1e-12, so an answer off by 1e-9 relatively is refused there.
ZERO_ULPS = 64


@dataclass(frozen=True)
class Found:
    """What the lines found for one puzzle and variant."""

    zeros: tuple[tuple[str, tuple[np.ndarray, ...]], ...]  # (label, a value per argument)
    groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (argument, its competing groups)


def key(puzzle: Puzzle) -> str:
    """The name of `puzzle`'s rows in `TABLE` and its file in the cache: a digest of what the search reads."""
    shapes = [(a.name, a.shape, a.dtype, a.low, a.high, a.avoid, a.static, a.sampler, a.cotangent) for a in puzzle.args]
    text = f"{puzzle.name}|{puzzle.variant!r}|{puzzle.code}|{puzzle.backward}|{puzzle.outs!r}|{shapes!r}|{puzzle.guard}"
    # Not the JAX version: a zero found under one version is a zero to within ulps under the next,
    # and the expected Jacobians at it are computed afresh anyway; so the shipped table holds.
    text += f"|{LINES}|{GRID}|{ZEROS}|{BISECTIONS}|{ZERO_ULPS}|{BESIDE}|{BESIDE_BAND}"
    text += f"|{PINNED}|{PINNED_ZEROS}|{PINNED_SEEN}|{SHRINK_VALUES}|{SHRINK_FLOOR}"
    if _alone(puzzle):
        text += f"|alone {ALONE_BAND} {ZEROS_ALONE}"
    if _pins_per_argument(puzzle):
        text += "|a line per entry pinned"
    if any("ties" in a.avoid for a in puzzle.args):
        text += "|champions"
    if _held_args(puzzle):
        text += f"|held {HELD_SPREAD} {HELD_LINES} {HELD_ZEROS}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Sampler:
    """The sampler's functions the search draws its segments' ends with (`_sampling.SAMPLER`)."""

    dtype: Callable[[Arg], str]
    random: Callable[[Arg, np.random.Generator], np.ndarray]
    valid: Callable[..., bool]  # (puzzle, values, structured=False): whether f's domain holds them


def found(puzzle: Puzzle, sampler: Sampler) -> Found:
    """The zero-crossing draws and competing groups of `puzzle` (cached on disk and in memory)."""
    return _found(puzzle, key(puzzle), sampler)


# The search's results for every variant of every puzzle, shipped with the kit, so that no check
# waits on a search (`python -m checker.authoring._zero_table` rewrites it; a test fails when it
# is stale): one file per puzzle, its variants' rows in it, so that a check opens only its own
# (one file of all 3000 rows took 19 ms to open, a fiftieth of a warm check). A puzzle the table
# lacks (a catalog being written) is searched on first use and cached.
TABLE = Path(__file__).resolve().parents[1] / "_data" / "zeros"


@functools.lru_cache(maxsize=8)
def shipped(name: str) -> Any:
    """The shipped rows of puzzle `name`'s variants, opened lazily ({} when there are none)."""
    try:
        return np.load(TABLE / f"{name}.npz", allow_pickle=False)
    except (OSError, ValueError):
        return {}


def shipped_rows() -> dict[str, str]:
    """Every shipped row's name, with the puzzle it belongs to (for the table's maintenance)."""
    return {row: path.stem for path in sorted(TABLE.glob("*.npz")) for row in shipped(path.stem).files}


def _from_table(puzzle: Puzzle, key: str) -> Found | None:
    table = shipped(puzzle.name)
    if f"{key}-labels" not in getattr(table, "files", table):
        return None
    labels = [str(s) for s in table[f"{key}-labels"]]
    columns = [table[f"{key}-a{k}"] for k in range(len(puzzle.args))] if labels else []
    zeros = tuple((label, tuple(np.asarray(c[d]) for c in columns)) for d, label in enumerate(labels))
    return Found(zeros, _unflatten(table[f"{key}-groups"]))


def _arrays(result: Found, prefix: str = "") -> dict[str, Any]:
    arrays: dict[str, Any] = {f"{prefix}labels": np.array([label for label, _ in result.zeros], dtype=str)}
    n = len(result.zeros[0][1]) if result.zeros else 0
    for k in range(n):
        arrays[f"{prefix}a{k}"] = np.stack([values[k] for _, values in result.zeros])
    arrays[f"{prefix}groups"] = _flatten(result.groups)
    return arrays


def searched(puzzle: Puzzle, sampler: Sampler) -> dict[str, Any]:
    """A fresh search of `puzzle`, as the arrays of its rows in `TABLE`."""
    with _numerics.pinned():
        return _arrays(_search(puzzle, sampler), f"{key(puzzle)}-")


def write_table(rows: dict[str, dict[str, Any]]) -> None:
    """Write `TABLE` from the rows of `searched`, by puzzle name (`python -m
    checker.authoring._zero_table`); a puzzle's file holds the rows of every variant of it."""
    TABLE.mkdir(exist_ok=True)
    for stale in set(TABLE.glob("*.npz")) - {TABLE / f"{name}.npz" for name in rows}:
        stale.unlink()
    for name, arrays in rows.items():
        np.savez_compressed(TABLE / f"{name}.npz", **arrays)
    shipped.cache_clear()


@functools.lru_cache(maxsize=256)
def _found(puzzle: Puzzle, key: str, sampler: Sampler) -> Found:
    shipped = _from_table(puzzle, key)
    if shipped is not None:
        return shipped
    from checker.engine._oracles import cache_dir  # imports JAX: only when there is a search to cache

    where = cache_dir()
    path = where / "zeros" / f"{puzzle.name}-{key}.npz" if where is not None else None
    if path is not None:
        loaded = _load(puzzle, path)
        if loaded is not None:
            return loaded
    with _numerics.pinned():
        result = _search(puzzle, sampler)
    if path is not None:
        _store(path, result)
    return result


def _load(puzzle: Puzzle, path: Path) -> Found | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            labels = [str(s) for s in saved["labels"]]
            columns = [saved[f"a{k}"] for k in range(len(puzzle.args))] if labels else []
            flat = saved["groups"]
        zeros = tuple((label, tuple(np.asarray(c[d]) for c in columns)) for d, label in enumerate(labels))
        return Found(zeros, _unflatten(flat))
    except (OSError, ValueError, KeyError, IndexError):
        return None  # a damaged file is recomputed


def _store(path: Path, result: Found) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = _arrays(result)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs speed


def _flatten(groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]) -> np.ndarray:
    # (argument, group number, member) rows: plain integers, loaded without pickle.
    rows = [(k, g, m) for k, found in groups for g, members in enumerate(found) for m in members]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def _unflatten(rows: np.ndarray) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    out: dict[int, dict[int, list[int]]] = {}
    for k, g, m in rows.tolist():
        out.setdefault(k, {}).setdefault(g, []).append(m)
    return tuple((k, tuple(tuple(members) for _, members in sorted(found.items()))) for k, found in sorted(out.items()))


# Where every float argument is one entry: the band of magnitudes two more lines run across.
ALONE_BAND = (1e2, 1e3)


def _alone(puzzle: Puzzle) -> bool:
    """Whether every float argument of `puzzle` is one plain entry (`cos`)."""
    floats = [a for a in puzzle.args if a.dtype in FLOAT_DTYPES and a.static is None]
    return bool(floats) and all(int(np.prod(a.shape)) == 1 and a.sampler == "uniform" and a.edges is None
                                for a in floats)


def _lines(puzzle: Puzzle, sampler: Sampler, count: int = LINES,
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
    if _alone(puzzle) and count == LINES:
        start, _ = lines[0]
        for sign in (1.0, -1.0):
            low, high = (tuple(np.full(a.shape, sign * edge).astype(v.dtype)
                               if a.dtype in FLOAT_DTYPES and a.static is None else v
                               for a, v in zip(puzzle.args, start)) for edge in ALONE_BAND)
            lines.append((low, high))
    return lines


def _at(puzzle: Puzzle, line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]],
        t: float) -> tuple[np.ndarray, ...]:
    start, end = line
    return tuple(
        (s + t * (e - s)).astype(s.dtype) if a.dtype in FLOAT_DTYPES and a.static is None else s
        for a, s, e in zip(puzzle.args, start, end)
    )


def _jacobian(puzzle: Puzzle) -> Any:
    """A jitted function: stacked dynamic inputs -> the expected blocks (leaves), draw axis first."""
    import jax

    from checker.engine._oracles import _oracle
    from checker.engine._settings import FAST_COMPILE

    one: Any
    if puzzle.is_vjp:
        pair = _oracle(puzzle)

        def first(*args: Any) -> Any:
            return pair(*args)[0]

        one = first
    else:
        one = jax.jacfwd(puzzle.on_dynamic(puzzle.f), puzzle.dynamic_argnums())
    batched: Any = jax.vmap(one)
    return jax.jit(lambda xs: jax.tree_util.tree_leaves(batched(*xs)), compiler_options=FAST_COMPILE)


def _evaluate(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]]) -> list[np.ndarray]:
    stack = stacked(tuple(Draw("", p) for p in points))
    return [np.asarray(leaf, np.float64).reshape(len(points), -1) for leaf in program(puzzle.dynamic(stack))]


def _search(puzzle: Puzzle, sampler: Sampler) -> Found:
    if not any(a.differentiable for a in puzzle.args):
        return Found((), ())
    program = _jacobian(puzzle)
    lines = _lines(puzzle, sampler)
    grid = _evaluate(program, puzzle, [_at(puzzle, line, t) for line in lines for t in _steps()])
    groups = _groups(puzzle, grid, _champions(program, puzzle, lines))
    kept = _crossings(program, puzzle, sampler, lines, grid)
    # Every block that has a zero first, then the rest, up to ZEROS.
    blocks_used = [c.block for c in kept]
    firsts = [i for i, b in enumerate(blocks_used) if b not in blocks_used[:i]]
    most = ZEROS_ALONE if _alone(puzzle) else ZEROS
    picked = sorted((firsts + [i for i in range(len(kept)) if i not in firsts])[:most])
    zeros: list[tuple[str, tuple[np.ndarray, ...]]] = []
    batch = len(lines) * GRID
    for i in picked:
        c = kept[i]
        point = _shrink(program, puzzle, sampler, batch, c.point, c.block, c.entry)
        zeros.append((_label(puzzle, c.block, c.entry), point))
        beside = _beside(program, puzzle, sampler, batch, point, lines[c.line], c.block, c.entry)
        if beside is not None:
            zeros.append((_label(puzzle, c.block, c.entry, "beside its zero"), beside))
    zeros += _pinned(program, puzzle, sampler, lines)
    zeros += _held(program, puzzle, sampler)
    return Found(tuple(zeros), groups)


# Zeros with a probability vector held nearly uniform: each simplex argument of two entries or
# more held at 1/n times 1 + HELD_SPREAD (a different share per entry) along HELD_LINES segments
# whose other arguments run between two random draws, and up to HELD_ZEROS of the zeros found
# there kept (the first of each block first). An answer that reads such weights as uniform
# (`tensor_lookup_2d_corrected` as a plain mean once every weight `isclose` 1/n: red team RT38)
# is off by the spread, beyond the contract only at such a zero; a random segment never holds a
# probability vector that close to uniform.
HELD_SPREAD = 1e-10
HELD_LINES = LINES  # as many as the main search: one compilation for both
HELD_ZEROS = 2


def _held_args(puzzle: Puzzle) -> list[int]:
    return [k for k, a in enumerate(puzzle.args)
            if a.sampler == "simplex" and a.differentiable and a.static is None and a.shape and a.shape[-1] > 1]


def _held(program: Any, puzzle: Puzzle, sampler: Sampler) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    found: list[tuple[str, tuple[np.ndarray, ...]]] = []
    for k in _held_args(puzzle):
        arg = puzzle.args[k]
        n = arg.shape[-1]
        shares = np.broadcast_to(1.0 + HELD_SPREAD * (np.arange(n) / (n - 1) - 0.5), arg.shape) / n
        held = np.array(shares, dtype=np.float64)
        held[..., -1] = 1.0 - np.sum(held[..., :-1], axis=-1)
        lines = [(tuple(held.astype(v.dtype) if j == k else v for j, v in enumerate(start)),
                  tuple(held.astype(v.dtype) if j == k else v for j, v in enumerate(end)))
                 for start, end in _lines(puzzle, sampler, HELD_LINES, salt=k + 100)]
        batch = len(lines) * GRID
        grid = _evaluate(program, puzzle, _padded([_at(puzzle, line, t) for line in lines for t in _steps()], batch))
        kept = _crossings(program, puzzle, sampler, lines, grid)
        blocks = [c.block for c in kept]
        firsts = [i for i, b in enumerate(blocks) if b not in blocks[:i]]
        for i in (firsts + [i for i in range(len(kept)) if i not in firsts])[:HELD_ZEROS]:
            c = kept[i]
            found.append((f"{_label(puzzle, c.block, c.entry)}, {arg.name} within {HELD_SPREAD:g} of uniform", c.point))
    return found


def _steps() -> np.ndarray:
    return np.linspace(0.0, 1.0, GRID)


@dataclass(frozen=True)
class _Crossing:
    """A point of a line where one entry of the expected Jacobian is within ZERO_ULPS of 0."""

    point: tuple[np.ndarray, ...]
    block: int
    entry: int
    line: int


def _crossings(program: Any, puzzle: Puzzle, sampler: Sampler, lines: list[Any],
               grid: list[np.ndarray]) -> list[_Crossing]:
    """Where entries of the expected Jacobian cross zero along `lines` (`grid`: the blocks at
    GRID points of each), bisected to adjacent floats, spread over blocks and entries."""
    ts = _steps()
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
    kept: list[_Crossing] = []
    # A block of one entry is its own largest: its scale is the largest it gets along the line.
    along = [np.max(np.abs(leaf.reshape(len(lines), GRID, -1)), axis=(1, 2)) for leaf in grid]
    for end in (lo, hi):
        leaves = _evaluate(program, puzzle, _padded([_at(puzzle, lines[c[0]], t) for c, t in zip(chosen, end)], batch))
        for i, c in enumerate(chosen):
            scale = float(np.max(np.abs(leaves[c[2]][i]), initial=0.0))
            if leaves[c[2]].shape[1] == 1:
                scale = float(along[c[2]][c[0]])
            entry = float(leaves[c[2]][i, c[3]])
            if not np.isfinite(scale) or scale == 0.0 or abs(entry) > ZERO_ULPS * np.finfo(np.float64).eps * scale:
                continue
            point = _at(puzzle, lines[c[0]], float(end[i]))
            if (any(np.array_equal(point[0], k.point[0]) for k in kept)
                    or not sampler.valid(puzzle, point, structured=True)):
                continue
            kept.append(_Crossing(point, c[2], c[3], c[0]))
    return kept


# Zeros beside a tiny input entry: each line again with one entry of a float argument held at
# each of PINNED times that argument's largest entry at the line's ends (either sign), and up to
# PINNED_ZEROS of the zeros found there kept at each, those where the entry is seen: putting it
# at 0 moves the zero entry by more than PINNED_SEEN of its block's largest entry. An answer that
# snaps input entries below some share of the largest to 0 (`where(abs(x) < 1e-10 * abs(x).max(),
# 0, x)`, red team RT17) is then wrong by that much where the contract allows 1e-12; elsewhere
# the snap moves O(1) entries by 1e-11, inside the contract's 1e-7 relative. Just under 1e-11
# and 1e-10, so that a snap at either is caught (red team RT35: at exactly 1e-11 of the largest
# the pin was not below it); at 9e-12 the snap moves a zero of attention's by about 3e-12 of its
# block, so the higher level is seen where the lower one barely is (the causal variant with a
# gain of 0.5 kept no zero beside a tiny q, and snapping q passed it).
PINNED = (9e-12, 9e-11)
PINNED_ZEROS = 2
PINNED_SEEN = 2e-12


def _pins_per_argument(puzzle: Puzzle) -> bool:
    """Whether the zeros beside a tiny entry keep one per argument: with three or more."""
    return sum(1 for a in puzzle.args if a.differentiable and a.static is None and a.sampler == "uniform") > 2


def _pinned(program: Any, puzzle: Puzzle, sampler: Sampler,
            lines: list[Any]) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """Zero crossings beside a tiny input entry (at each of PINNED), with their labels."""
    slots = [(k, j) for k, a in enumerate(puzzle.args)
             if a.differentiable and a.static is None and a.sampler == "uniform"
             for j in range(max(1, int(np.prod(a.shape))))]
    if len(slots) < 2:
        return []  # one entry alone: its own small draws (`_sampling`) reach its zero
    return [found for n, level in enumerate(PINNED) for found in _pinned_at(program, puzzle, sampler, lines, slots,
                                                                             level, n)]


def _pinned_at(program: Any, puzzle: Puzzle, sampler: Sampler, lines: list[Any], slots: list[tuple[int, int]],
               level: float, n: int) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """Zero crossings beside an entry held at `level` times its argument's largest (the `n`-th of PINNED)."""
    rng = np.random.default_rng([zlib.crc32(puzzle.name.encode()), zlib.crc32(repr(puzzle.variant).encode()), 23 + n])
    pinned_lines, pins = [], []
    # With three arguments or more, every line once per entry, pinning that one: an argument
    # whose entries each move only some outputs (attention's k under the causal mask) still
    # gets a zero its pin is seen at.
    choices = [[slot] for slot in slots] if _pins_per_argument(puzzle) else [slots]
    for (start, end), among in itertools.product(lines, choices):
        k, j = among[int(rng.integers(len(among)))]
        # The argument's largest entry at its least along the line (a mix of the ends can be below
        # both): the pin stays under `level` of it wherever a zero is found.
        reach = min(float(np.max(np.abs(start[k] + t * (end[k] - start[k])))) for t in _steps())
        value = float(rng.choice([-1.0, 1.0])) * level * reach
        ends = []
        for values in (start, end):
            moved = [np.array(v) for v in values]
            moved[k].reshape(-1)[j] = value
            ends.append(tuple(moved))
        pinned_lines.append((ends[0], ends[1]))
        pins.append((k, j))
    grid = _evaluate(program, puzzle, [_at(puzzle, line, t) for line in pinned_lines for t in _steps()])
    kept = _crossings(program, puzzle, sampler, pinned_lines, grid)
    if not kept:
        return []
    batch = max(len(lines) * GRID, len(kept))
    snapped = []  # the pinned entry, and any other as small (a coincidence of the line), put at 0
    for c in kept:
        k, j = pins[c.line]
        moved = [np.array(v) for v in c.point]
        small = np.abs(moved[k]) <= 2 * abs(float(moved[k].reshape(-1)[j]))
        moved[k] = np.where(small, 0.0, moved[k]).astype(moved[k].dtype)
        snapped.append(tuple(moved))
    before = _evaluate(program, puzzle, _padded([c.point for c in kept], batch))
    after = _evaluate(program, puzzle, _padded(snapped, batch))
    seen = [i for i, c in enumerate(kept)
            if abs(after[c.block][i, c.entry]) > PINNED_SEEN * float(np.max(np.abs(before[c.block][i])))]
    # With three arguments or more, a zero beside a tiny entry of each argument first (red team
    # RT35: attention's v snapped passed where both kept zeros were beside q and k); then a zero
    # of each block, then the rest.
    each: list[int] = []
    if _pins_per_argument(puzzle):
        pinned_args = sorted({pins[kept[i].line][0] for i in seen})
        each = [next(i for i in seen if pins[kept[i].line][0] == k) for k in pinned_args]
    firsts = [i for n, i in enumerate(seen) if kept[i].block not in {kept[m].block for m in seen[:n]}]
    out: list[tuple[str, tuple[np.ndarray, ...]]] = []
    order = each + [i for i in firsts if i not in each] + [i for i in seen if i not in firsts and i not in each]
    for i in order[:max(PINNED_ZEROS, len(each))]:
        c = kept[i]
        k, j = pins[c.line]
        where = ", ".join(str(int(n)) for n in np.unravel_index(j, puzzle.args[k].shape))
        how = f"crossing zero beside a tiny {puzzle.args[k].name}[{where}] ({level:g} of its largest)"
        out.append((_label(puzzle, c.block, c.entry, how), c.point))
    return out


# Beside each zero, the entry at about this share of its block's largest entry (kept between
# BESIDE_BAND's ends): just above the contract's 1e-12 there, so an answer that snaps entries
# below any share of its block's scale larger than this (`where(abs(J) < 1e-10 * abs(J).max(),
# 0, J)`, red team RT17) is refused, where at the zero itself snapping loses nothing.
BESIDE = 3e-12
BESIDE_BAND = (1.5e-12, 1e-11)
BESIDE_STEPS = np.array([s * 10.0 ** -k for k in range(4, 16) for s in (1.0, -1.0)])  # along the line


def _beside(program: Any, puzzle: Puzzle, sampler: Sampler, batch: int, point: tuple[np.ndarray, ...],
            line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]], block: int,
            entry: int) -> tuple[np.ndarray, ...] | None:
    """`point` moved along its line to where the zero entry is BESIDE of its block's largest
    entry, or None when no step of BESIDE_STEPS lands inside BESIDE_BAND."""
    start, end = line
    points = [tuple((v + t * (e - s)).astype(v.dtype) if a.dtype in FLOAT_DTYPES and a.static is None else v
                    for a, v, s, e in zip(puzzle.args, point, start, end)) for t in BESIDE_STEPS]
    leaves = _evaluate(program, puzzle, _padded(points, batch))
    rows = leaves[block][: len(points)]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.abs(rows[:, entry]) / np.max(np.abs(rows), axis=1)
    inside = np.flatnonzero((share >= BESIDE_BAND[0]) & (share <= BESIDE_BAND[1]))
    for k in sorted(inside, key=lambda k: abs(np.log(share[k] / BESIDE))):
        if sampler.valid(puzzle, points[k], structured=True):
            return points[k]
    return None


SHRINK_VALUES = 12  # values each other entry tries, evenly over its domain
SHRINK_FLOOR = 1e-2  # the block's largest entry is brought down to no less than this share of it


def _shrink(program: Any, puzzle: Puzzle, sampler: Sampler, batch: int, point: tuple[np.ndarray, ...], block: int,
            entry: int) -> tuple[np.ndarray, ...]:
    """`point` with the other entries moved (one pass, each over SHRINK_VALUES values of its
    domain) to where the zero entry's block is smallest while that entry stays at zero: the
    contract's allowance there is 1e-12 of the block's largest entry, so a smaller block shows
    a smaller mistake. Elementwise functions keep their zero; coupled ones mostly refuse the
    moves. Never below SHRINK_FLOOR of the block's first scale, where rounding would start to
    count. (The zero entry keeps its value, a few ulps' worth, while the block shrinks, and
    stays a zero only while that value is within ZERO_ULPS of the smaller block: that, more than
    the floor, ends the shrinking of a `gelu`'s block near 1e-2.)"""
    def measure(points: list[tuple[np.ndarray, ...]]) -> list[tuple[float, float, float]]:
        found = []
        for start in range(0, len(points), batch):
            chunk = points[start:start + batch]
            leaves = _evaluate(program, puzzle, _padded(chunk, batch))
            rows = leaves[block][: len(chunk)]
            found += list(zip(np.max(np.abs(rows), axis=1).tolist(), rows[:, entry].tolist(),
                              np.sum(rows**2, axis=1).tolist()))
        return found

    def fine(scale: float, value: float, floor: float) -> bool:
        return (bool(np.isfinite(scale)) and scale >= floor
                and abs(value) <= ZERO_ULPS * np.finfo(np.float64).eps * scale)

    (scale0, _, size0), = measure([point])
    floor = SHRINK_FLOOR * scale0
    moves: list[tuple[int, int, float]] = []
    for k, a in enumerate(puzzle.args):
        if a.dtype in FLOAT_DTYPES and a.static is None and a.sampler == "uniform":
            for j in range(max(1, int(np.prod(a.shape)))):
                moves += [(k, j, float(v)) for v in np.linspace(a.low, a.high, SHRINK_VALUES)]

    def moved(base: tuple[np.ndarray, ...], changes: list[tuple[int, int, float]]) -> tuple[np.ndarray, ...]:
        out = [np.array(v) for v in base]
        for k, j, v in changes:
            out[k].reshape(-1)[j] = v
        return tuple(out)

    # Each move judged by the block's sum of squares: for an elementwise f, each entry's own
    # best value lowers it independently, and all of them together lower the largest entry.
    best: dict[tuple[int, int], tuple[float, float]] = {}
    for (k, j, v), (scale, value, size) in zip(moves, measure([moved(point, [m]) for m in moves])):
        if fine(scale, value, floor) and size < best.get((k, j), (size0, 0.0))[0]:
            best[(k, j)] = (size, v)
    if not best:
        return point
    together = moved(point, [(k, j, v) for (k, j), (_, v) in best.items()])
    # All the moves at once, and part of the way there: all at once may overshoot the floor.
    blends = [tuple(p + t * (q - p) if np.issubdtype(p.dtype, np.floating) else p for p, q in zip(point, together))
              for t in np.linspace(1.0, 0.05, 20)]
    options = [(scale, b) for b, (scale, value, _) in zip(blends, measure(blends))
               if fine(scale, value, floor) and scale < scale0]
    options = [(scale, b) for scale, b in options if sampler.valid(puzzle, b, structured=True)]
    if options:
        return min(options, key=lambda o: o[0])[1]
    (k, j), (_, v) = min(best.items(), key=lambda item: item[1][0])
    single = moved(point, [(k, j, v)])
    return single if sampler.valid(puzzle, single, structured=True) else point


def _padded(points: list[tuple[np.ndarray, ...]], batch: int) -> list[tuple[np.ndarray, ...]]:
    return points + [points[-1]] * (batch - len(points))


def _entries(program: Any, puzzle: Puzzle, lines: list[Any], chosen: list[tuple[int, int, int, int]], t: np.ndarray,
             batch: int) -> np.ndarray:
    leaves = _evaluate(program, puzzle, _padded([_at(puzzle, lines[c[0]], float(x)) for c, x in zip(chosen, t)], batch))
    return np.array([leaves[c[2]][i, c[3]] for i, c in enumerate(chosen)])


def _label(puzzle: Puzzle, block: int, entry: int, how: str = "crossing zero") -> str:
    shape = puzzle.jac_shapes()[block]
    where = ", ".join(str(int(i)) for i in np.unravel_index(entry, shape)) if shape else ""
    return f"an entry {how} (block {block}, entry [{where}])"


def _champions(program: Any, puzzle: Puzzle, lines: list[Any]) -> list[np.ndarray]:
    """The expected blocks where each entry of an argument that f has a kink at ties of is, in
    turn, far above and far below all the others (the start of the first line otherwise): it
    then wins every max and every min it takes part in, so it reaches every output it competes
    for, which the lines alone may miss (an entry never largest along them)."""
    start, _ = lines[0]
    points = []
    for k, arg in enumerate(puzzle.args):
        if "ties" in arg.avoid and arg.differentiable:
            spread = float(np.max(np.abs(start[k]))) + 1.0
            for j in range(max(1, int(np.prod(arg.shape)))):
                for sign in (1.0, -1.0):
                    moved = [np.array(v) for v in start]
                    moved[k].reshape(-1)[j] = sign * 2 * spread
                    points.append(tuple(moved))
    if not points:
        return []
    batch = len(lines) * GRID
    leaves: list[list[np.ndarray]] = []
    for first in range(0, len(points), batch):
        chunk = points[first:first + batch]
        leaves.append([leaf[: len(chunk)] for leaf in _evaluate(program, puzzle, _padded(chunk, batch))])
    return [np.concatenate(parts) for parts in zip(*leaves)]


def _groups(puzzle: Puzzle, grid: list[np.ndarray],
            champions: list[np.ndarray]) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Per argument that f has a kink at ties of (`avoid = ["ties"]`), the distinct sets of its
    entries that reach one output somewhere on the lines or where one entry is far above or
    below the others (`_champions`): who competes for that output."""
    if puzzle.is_vjp:
        return ()
    if champions:
        grid = [np.concatenate([leaf, extra]) for leaf, extra in zip(grid, champions)]
    differentiable = [k for k, a in enumerate(puzzle.args) if a.differentiable]
    out = []
    n_outs = len(puzzle.outs)
    for k in differentiable:
        arg = puzzle.args[k]
        if "ties" not in arg.avoid:
            continue
        size = max(1, int(np.prod(arg.shape)))
        position = differentiable.index(k)
        sets: list[tuple[int, ...]] = []
        for o in range(n_outs):
            leaf = grid[o * len(differentiable) + position]  # output-major blocks
            reach = np.any(leaf.reshape(leaf.shape[0], -1, size) != 0, axis=0)
            for row in reach:
                members = tuple(int(i) for i in np.flatnonzero(row))
                if len(members) >= 2 and members not in sets:
                    sets.append(members)
        if sets:
            out.append((k, tuple(sets)))
    return tuple(out)


