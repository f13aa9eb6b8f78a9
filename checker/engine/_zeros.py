"""Draws found from the expected Jacobian itself: where its entries cross zero, and which inputs
compete for an output.

A constant rounded to nine digits is right to 1e-9 relatively everywhere, and only wrong where
an entry of the Jacobian crosses zero: there the contract (`_tolerance`) allows 1e-12 of the
block's largest entry, and the rounding error is larger. Random draws never land there. So,
per puzzle and variant, `jax.jacfwd` (float64) is evaluated along a few lines through the
domain (segments between two random draws: the domain is a box or a product of simplices, so
they stay inside it), each entry's sign changes are bracketed on a grid and bisected down to
adjacent floats, the entry is looked at a few half-ulp steps either side (`_probe`), and the
step where it is smallest is kept where it is within a few ulps of its block's largest entry
times float64's epsilon (while that largest entry is not 0). Integer arguments keep their
value along a line. A kept zero then has its block shrunk (`_shrink`): the smaller the block,
the smaller the mistake the contract shows there, down to where a right answer's rounding
(measured by the entry's own noise along the line, `_noise`) would start to count. Zeros are
also searched in the largest region beyond the domain the catalog declares (`_beyond`), and
among those left over, the ones whose entry moves most when an argument is scaled are kept
too (`_sensitivity`: a constant with too few digits acts like such a scaling). Every draw is
kept only where `jax.jacrev` agrees with jacfwd well inside the contract (`_agreeing`), so no
right answer is refused there.

A block of one entry (`cos`'s -f sin(f x)) is its own largest entry: there the scale is the
largest the entry gets along the line, and a zero is kept where the entry is within ZERO_ULPS of
float64's epsilon times that. Where every float argument is one entry, more lines run across
the `large` magnitudes beyond the domain (ALONE_BAND, either sign), which the sampler draws
too: `cos`'s zeros at multiples of pi, where an answer that reduces the angle by `k * np.pi`
is wrong (red team RT24). `_sampling` draws a one-entry argument itself at 1e-12 to 1e-9 and
1e-41 to 1e-39, both signs, which reaches the zero at 0.

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

from checker.engine import _numerics, _tolerance
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
# The contract's allowance at a zero, a share of the block's largest entry.
ZERO_ATOL = _tolerance.TOLERANCES["float64"][1]


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
    text += f"|{LINES}|{GRID}|{ZEROS}|{BISECTIONS}|{ZERO_ULPS}|{BESIDE}|{BESIDE_BAND}|{len(BESIDE_STEPS)}"
    text += f"|{PINNED}|{PINNED_ZEROS}|{PINNED_SEEN}|{SHRINK_VALUES}|{SHRINK_FLOOR}|{POLISH}|{NOISE_SHARE}|{ZERO_SHARE}"
    if _alone(puzzle):
        text += f"|alone {ALONE_BAND} {ZEROS_ALONE} {ALONE_SHORT} {ALONE_WIDTH}"
    if _pins_per_argument(puzzle):
        text += "|a line per entry pinned"
    if any("ties" in a.avoid for a in puzzle.args):
        text += "|champions"
    if _held_args(puzzle):
        text += f"|held {HELD_SPREAD} {HELD_LINES} {HELD_ZEROS}"
    if any(m > 1 for a in puzzle.args for m in a.magnitudes):
        text += f"|beyond {BEYOND_ZEROS} {[a.magnitudes for a in puzzle.args]}"
    text += f"|scaled {SCALED_ZEROS} {SCALING}|agreement {AGREEMENT}"
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


# Where every float argument is one entry: the band of magnitudes two more lines run across,
# and ALONE_SHORT shorter ones inside it, ALONE_WIDTH long. Across the whole band the grid's
# points are 39 apart, where cos(0.8 x)'s zeros fall about 10 to a step, an even number: few
# sign changes showed, and the zeros kept were all at 0 (red team RT39's F3, `4 * x / 5` for
# `0.8 * x` passed). On the short lines the points are 0.43 apart, closer than the zeros of
# cos(6 x), the highest frequency of the catalog.
ALONE_BAND = (1e2, 1e3)
ALONE_SHORT = 4
ALONE_WIDTH = 10.0


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
        spans = [(sign * ALONE_BAND[0], sign * ALONE_BAND[1]) for sign in (1.0, -1.0)]
        for _ in range(ALONE_SHORT):
            near = float(rng.choice([-1.0, 1.0])) * float(np.exp(rng.uniform(*np.log(ALONE_BAND))))
            spans.append((near, near + float(np.sign(near)) * ALONE_WIDTH))
        for span in spans:
            low, high = (tuple(np.full(a.shape, edge).astype(v.dtype) if a.dtype in FLOAT_DTYPES and a.static is None
                               else v for a, v in zip(puzzle.args, start)) for edge in span)
            lines.append((low, high))
    return lines


def _at(puzzle: Puzzle, line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]],
        t: float) -> tuple[np.ndarray, ...]:
    start, end = line
    return tuple(
        (s + t * (e - s)).astype(s.dtype) if a.dtype in FLOAT_DTYPES and a.static is None else s
        for a, s, e in zip(puzzle.args, start, end)
    )


def _jacobian(puzzle: Puzzle, reverse: bool = False) -> Any:
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


def _evaluate(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]]) -> list[np.ndarray]:
    stack = stacked(tuple(Draw("", p) for p in points))
    return [np.asarray(leaf, np.float64).reshape(len(points), -1) for leaf in program(puzzle.dynamic(stack))]


def _search(puzzle: Puzzle, sampler: Sampler) -> Found:
    if not any(a.differentiable for a in puzzle.args):
        return Found((), ())
    program = _jacobian(puzzle)
    reverse = _jacobian(puzzle, reverse=True)
    lines = _lines(puzzle, sampler)
    grid = _evaluate(program, puzzle, [_at(puzzle, line, t) for line in lines for t in _steps()])
    groups = _groups(puzzle, grid, _champions(program, puzzle, lines))
    batch = len(lines) * GRID
    kept = [(c, lines[c.line], "") for c in _crossings(program, puzzle, sampler, lines, grid)]
    picked = _spread(kept, ZEROS_ALONE if _alone(puzzle) else ZEROS)
    zeros = [found for i in sorted(picked) for found in _kept(program, reverse, puzzle, sampler, batch, *kept[i])]
    zeros += _pinned(program, puzzle, sampler, lines)
    zeros += _held(program, puzzle, sampler)
    beyond = _beyond(program, puzzle, sampler)
    chosen = _spread(beyond, BEYOND_ZEROS)
    zeros += [found for i in chosen for found in _kept(program, reverse, puzzle, sampler, batch, *beyond[i])]
    # Then the zeros whose entry moves most when an argument is scaled, of those not kept yet.
    every = kept + beyond
    taken = set(picked) | {len(kept) + i for i in chosen}
    rest = [i for i in range(len(every)) if i not in taken]
    moving = _sensitivity(program, puzzle, [every[i][0] for i in rest], batch)
    seen: set[tuple[int, int, int]] = set()  # one zero per entry and segment
    for n in np.argsort(-moving, kind="stable"):
        c, line, where = every[rest[int(n)]]
        if moving[n] <= 0 or len(seen) == SCALED_ZEROS:
            break
        if (id(line), c.block, c.entry) not in seen:
            seen.add((id(line), c.block, c.entry))
            how = f"{where}, where scaling an argument moves it most"
            zeros += _kept(program, reverse, puzzle, sampler, batch, c, line, how)
    # Every draw kept only where the ways of computing the Jacobian agree well inside the contract.
    fair = _agreeing(program, reverse, puzzle, [point for _, point in zeros], batch)
    return Found(tuple(z for z, keep in zip(zeros, fair) if keep), groups)


# A draw of this search is kept only where four computations of the Jacobian agree within this
# share of the contract at every entry of every block: the checker's own oracles (jacfwd, and
# jacrev or the vjp's cross-check, compiled as `_oracles` compiles them) and this search's
# (jacfwd and jacrev, compiled for speed). Shrinking a block can leave other entries with more
# rounding than its new scale allows: gelu's slopes near x = -8 (its region 3 times the domain)
# are 1e-30, and the oracle's fused tanh, 4 ulps short of -1 there, makes them -1e-14, twice
# the contract of a block shrunk to 4e-3, where the reference answer and jacrev give 0.
AGREEMENT = 0.1


def _agreeing(program: Any, reverse: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]],
              batch: int) -> list[bool]:
    """Per point, whether the oracles' jacfwd, their cross-check, this search's jacfwd
    (`program`) and its jacrev (`reverse`; None for a backward pass) all agree within AGREEMENT
    of the contract at every entry."""
    from checker.engine._oracles import _compute

    rtol, atol = _tolerance.TOLERANCES["float64"]
    fair: list[bool] = []
    for first in range(0, len(points), batch):
        chunk = points[first:first + batch]
        padded = _padded(chunk, batch)
        expected, check = _compute([(puzzle, tuple(Draw("", p) for p in padded))])[0]
        others = [[np.asarray(leaf, np.float64).reshape(batch, -1) for leaf in check],
                  _evaluate(program, puzzle, padded)]
        if reverse is not None:
            others.append(_evaluate(reverse, puzzle, padded))
        ok = np.ones(len(chunk), dtype=bool)
        for k, leaf in enumerate(expected):
            a = np.asarray(leaf, np.float64).reshape(batch, -1)[: len(chunk)]
            allowed = AGREEMENT * (atol * np.max(np.abs(a), axis=1, keepdims=True, initial=0.0) + rtol * np.abs(a))
            for other in others:
                b = other[k][: len(chunk)]
                with np.errstate(invalid="ignore"):
                    ok &= np.all((np.abs(a - b) <= allowed) | (a == b), axis=1)
        fair += ok.tolist()
    return fair


Line = tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]  # a segment's two ends, a value per argument


def _spread(kept: list[tuple[_Crossing, Line, str]], most: int) -> list[int]:
    """Up to `most` of `kept`: a zero of every block first, then the rest in order."""
    blocks = [c.block for c, _, _ in kept]
    firsts = [i for i, b in enumerate(blocks) if b not in blocks[:i]]
    return (firsts + [i for i in range(len(kept)) if i not in firsts])[:most]


def _kept(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int, c: _Crossing, line: Line,
          where: str) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """The draws of one crossing: its zero with the block shrunk, and beside it (`where`: how
    its line was drawn, for the labels)."""
    point = _shrink(program, reverse, puzzle, sampler, batch, c, _direction(puzzle, line))
    out = [(_label(puzzle, c.block, c.entry, f"crossing zero{where}"), point)]
    beside = _beside(program, reverse, puzzle, sampler, batch, point, line, c.block, c.entry)
    if beside is not None:
        out.append((_label(puzzle, c.block, c.entry, f"beside its zero{where}"), beside))
    return out


# Zeros in the largest region beyond the domain the catalog declares (`Arg.magnitudes` above 1):
# each argument that declares it scaled by it at both ends of LINES more segments, and up to
# BEYOND_ZEROS of the zeros found there kept (the first of each block first), shrunk and with a
# draw beside each like the others. There the terms that cancel at a zero are larger beside the
# block: attention's scores reach 12 with q and k at 3 times [-1, 1], and a 1/sqrt(2) written
# with 12 digits is off by 13 times the contract at such a zero, where it passed at every zero of
# the domain itself (red team RT39).
BEYOND_ZEROS = 2


def _beyond(program: Any, puzzle: Puzzle, sampler: Sampler) -> list[tuple[_Crossing, Line, str]]:
    """The crossings along lines through the largest region beyond the domain, with their
    lines and where that is."""
    scale = max((m for a in puzzle.args for m in a.magnitudes if m > 1), default=None)
    if scale is None:
        return []
    which = [k for k, a in enumerate(puzzle.args) if scale in a.magnitudes]
    lines: list[Line] = [
        (tuple((np.asarray(v, np.float64) * scale).astype(v.dtype) if k in which else v for k, v in enumerate(start)),
         tuple((np.asarray(v, np.float64) * scale).astype(v.dtype) if k in which else v for k, v in enumerate(end)))
        for start, end in _lines(puzzle, sampler, LINES, salt=300)]
    grid = _evaluate(program, puzzle, [_at(puzzle, line, t) for line in lines for t in _steps()])
    where = f" with {', '.join(puzzle.args[k].name for k in which)} at {scale:g} times the domain"
    return [(c, lines[c.line], where) for c in _crossings(program, puzzle, sampler, lines, grid)]


# Up to this many more zeros: those where the entry moves most, relative to its block's largest
# entry, when one float argument is scaled by 1 +- SCALING. A constant written with too few
# digits (1/sqrt(2) as 0.707106781187, attention's scale) acts like such a scaling, and is off
# by the most there: where that share is small it passes (red team RT39). Only zeros whose
# rounding noise is within NOISE_SHARE of the contract's allowance are chosen.
SCALED_ZEROS = 2
SCALING = 1e-6


def _sensitivity(program: Any, puzzle: Puzzle, kept: list[_Crossing], batch: int) -> np.ndarray:
    """Per crossing, how far its entry moves per unit of relative scaling of one float argument
    (the most over the arguments), in units of its block's largest entry; 0 where its noise is
    too large for its block."""
    floats = [k for k, a in enumerate(puzzle.args) if a.dtype in FLOAT_DTYPES and a.static is None and a.differentiable]
    if not kept or not floats:
        return np.zeros(len(kept))
    points = [c.point for c in kept]
    owners = list(range(len(kept)))
    for n, c in enumerate(kept):
        for k in floats:
            for sign in (1.0, -1.0):
                moved = list(c.point)
                value = np.asarray(c.point[k])
                moved[k] = (np.asarray(value, np.float64) * (1 + sign * SCALING)).astype(value.dtype)
                points.append(tuple(moved))
                owners.append(n)
    values: list[float] = []
    scales: list[float] = []
    for first in range(0, len(points), batch):
        chunk = points[first:first + batch]
        leaves = _evaluate(program, puzzle, _padded(chunk, batch))
        for i in range(len(chunk)):
            c = kept[owners[first + i]]
            values.append(float(leaves[c.block][i, c.entry]))
            scales.append(float(np.max(np.abs(leaves[c.block][i]))))
    base = np.array(scales[: len(kept)])
    pairs = np.array(values[len(kept):]).reshape(len(kept), len(floats), 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.max(np.abs(pairs[:, :, 0] - pairs[:, :, 1]), axis=1) / (2 * SCALING * base)
    quiet = np.array([c.noise for c in kept]) <= NOISE_SHARE * ZERO_ATOL * base
    return np.where(np.isfinite(share) & quiet, share, 0.0)


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
    noise: float  # the entry's rounding noise there (`_noise`)


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
    # Each bracket's lower end polished (`_probe`): the step where the entry is smallest is kept
    # where it is within ZERO_ULPS of its block's largest entry. A block of one entry is its own
    # largest: there its scale is the largest it gets along the line.
    along = [np.max(np.abs(leaf.reshape(len(lines), GRID, -1)), axis=(1, 2)) for leaf in grid]
    probed = _probe(program, puzzle, [_at(puzzle, lines[c[0]], float(t)) for c, t in zip(chosen, lo)],
                    [_direction(puzzle, lines[c[0]]) for c in chosen], [c[2] for c in chosen],
                    [c[3] for c in chosen], batch)
    kept: list[_Crossing] = []
    for c, (points, values, scales) in zip(chosen, probed):
        for n in _smallest_first(values):
            scale = float(along[c[2]][c[0]]) if grid[c[2]].shape[1] == 1 else float(scales[n])
            if not np.isfinite(scale) or scale == 0.0 or abs(values[n]) > ZERO_ULPS * np.finfo(np.float64).eps * scale:
                break
            if sampler.valid(puzzle, points[n], structured=True):
                if not any(np.array_equal(points[n][0], k.point[0]) for k in kept):
                    kept.append(_Crossing(points[n], c[2], c[3], c[0], _noise(values)))
                break
    return kept


# Around each bisected zero, the entry at POLISH steps either side along its line (a step moves
# the input's largest entry by about half an ulp): the step where it is smallest is kept, and a
# zero only where that is within ZERO_ULPS of its block. Bisection stops at adjacent floats of
# the line's parameter, where the entry is whatever rounding leaves there: at cos's zeros near
# 500 that was often more than ZERO_ULPS, so few were kept, and at gelu's it was 12 to 58 ulps
# of the block (red team RT39: a sqrt(2/pi) of 13 digits and cos(0.8 x) as cos(4 x / 5) passed).
# The same values give the entry's rounding noise there (`_noise`): what jacfwd's own arithmetic
# adds, and about what a right answer's does.
POLISH = 24


def _noise(values: np.ndarray) -> float:
    """The rounding noise of `values` (the entry along 2 POLISH + 1 steps): the spread of their
    second differences (0 along a straight line), without the largest few, where the entry
    jumps (an index crossing an integer), scaled to a standard deviation."""
    second = np.sort(np.abs(np.diff(values, 2)))
    second = second[np.isfinite(second)][:-NOISE_JUMPS]
    # For independent noise of deviation s, a second difference has deviation s sqrt(6), and
    # its mean absolute value is sqrt(2 / pi) times that.
    return float(np.mean(second)) / (np.sqrt(2 / np.pi) * np.sqrt(6.0)) if second.size else float("inf")


NOISE_JUMPS = 4  # second differences left out as jumps: a jump spoils two


def _probe(program: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]], direction: list[tuple[np.ndarray, ...]],
           block: list[int], entry: list[int],
           batch: int) -> list[tuple[list[tuple[np.ndarray, ...]], np.ndarray, np.ndarray]]:
    """Per point, the 2 POLISH + 1 points stepped along its direction, the entry at each, and
    its block's largest entry at each."""
    stepped = [[tuple((v + o * d).astype(v.dtype) if np.issubdtype(v.dtype, np.floating) else v
                      for v, d in zip(point, way)) for o in _offsets(point, way)]
               for point, way in zip(points, direction)]
    flat = [q for group in stepped for q in group]
    values: list[float] = []
    scales: list[float] = []
    for first in range(0, len(flat), batch):
        chunk = flat[first:first + batch]
        leaves = _evaluate(program, puzzle, _padded(chunk, batch))
        for i in range(len(chunk)):
            n = (first + i) // (2 * POLISH + 1)
            values.append(float(leaves[block[n]][i, entry[n]]))
            scales.append(float(np.max(np.abs(leaves[block[n]][i]), initial=0.0)))
    shape = (len(points), 2 * POLISH + 1)
    return list(zip(stepped, np.reshape(values, shape), np.reshape(scales, shape)))


def _smallest_first(values: np.ndarray) -> list[int]:
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


def _direction(puzzle: Puzzle, line: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    start, end = line
    return tuple(np.asarray(e, np.float64) - np.asarray(s, np.float64)
                 if a.dtype in FLOAT_DTYPES and a.static is None else np.zeros(np.shape(s))
                 for a, s, e in zip(puzzle.args, start, end))


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
BESIDE = 2e-12
BESIDE_BAND = (1.2e-12, 1e-11)
BESIDE_STEPS = np.array([s * m * 10.0 ** -k for k in range(4, 16) for m in (1.0, 2.0, 5.0) for s in (1.0, -1.0)])


def _beside(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int, point: tuple[np.ndarray, ...],
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
    order = [int(k) for k in sorted(inside, key=lambda k: abs(np.log(share[k] / BESIDE)))
             if sampler.valid(puzzle, points[k], structured=True)]
    agree = _agreeing(program, reverse, puzzle, [points[k] for k in order], batch)
    return next((points[k] for k, fair in zip(order, agree) if fair), None)


SHRINK_VALUES = 48  # values each other entry tries, evenly over its domain
SHRINK_FLOOR = 1e-3  # the block's largest entry is brought down to no less than this share of it
# ... nor below where the entry's rounding noise (`_noise`) is more than this share of the
# contract's allowance at a zero (1e-12 of the block's largest entry): there a right answer's own
# rounding, a few times jacfwd's, stays well inside it.
NOISE_SHARE = 1e-2
# A shrunk block keeps its zero while the entry is within this share of that allowance: it was
# rounding noise of the terms that cancel there, and stays that size while the block shrinks,
# which ZERO_ULPS of the smaller block would soon refuse (gelu's stopped near 1e-2, where a
# sqrt(2/pi) of 13 digits passed: red team RT39).
ZERO_SHARE = 0.1


def _shrink(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int, crossing: _Crossing,
            direction: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """The crossing's point with the other entries moved (one pass, each over SHRINK_VALUES values
    of its domain) to where the zero entry's block is smallest while that entry stays at zero:
    the contract's allowance there is 1e-12 of the block's largest entry, so a smaller block
    shows a smaller mistake. Elementwise functions keep their zero; coupled ones mostly refuse
    the moves. Never below SHRINK_FLOOR of the block's first scale, nor where the entry's
    rounding noise (measured again at each candidate, along `direction`) is more than NOISE_SHARE
    of the contract there, where right answers would start to fail."""
    point, block, entry = crossing.point, crossing.block, crossing.entry

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
        return bool(np.isfinite(scale)) and scale >= floor and abs(value) <= ZERO_SHARE * ZERO_ATOL * scale

    (scale0, _, size0), = measure([point])
    floor = max(SHRINK_FLOOR * scale0, crossing.noise / (NOISE_SHARE * ZERO_ATOL))
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
    # values rank by its own size, independently of the others. The candidates: every entry at
    # its best value, at its second best, and so on (the block's largest entry grows with the
    # rank, so one of them lands near the floor), and the blends of the first with the start.
    ranked: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for (k, j, v), (scale, value, size) in zip(moves, measure([moved(point, [m]) for m in moves])):
        if fine(scale, value, 0.0) and size < size0:
            ranked.setdefault((k, j), []).append((size, v))
    if not ranked:
        return point
    for found in ranked.values():
        found.sort()
    levels = [moved(point, [(k, j, found[min(r, len(found) - 1)][1]) for (k, j), found in ranked.items()])
              for r in range(SHRINK_VALUES)]
    together = levels[0]
    blends = [tuple(p + t * (q - p) if np.issubdtype(p.dtype, np.floating) else p for p, q in zip(point, together))
              for t in np.linspace(0.95, 0.05, 19)]
    (k, j), found = min(ranked.items(), key=lambda item: item[1][0][0])
    tried = levels + blends
    candidates = [c for c, (scale, value, _) in zip(tried, measure(tried))
                  if fine(scale, value, floor) and scale < scale0] + [moved(point, [(k, j, found[0][1])])]
    candidates = [c for c in candidates if sampler.valid(puzzle, c, structured=True)]
    if not candidates:
        return point
    # Each candidate polished again (a coupled f moves its zero a little), and kept only where
    # the noise there allows its block.
    probed = _probe(program, puzzle, candidates, [direction] * len(candidates), [block] * len(candidates),
                    [entry] * len(candidates), batch)
    options = []
    for points, values, _ in probed:
        at = next((points[n] for n in _smallest_first(values) if sampler.valid(puzzle, points[n], structured=True)),
                  None)
        if at is None:
            continue
        (scale, value, _), = measure([at])
        if fine(scale, value, max(floor, _noise(values) / (NOISE_SHARE * ZERO_ATOL))) and scale < scale0:
            options.append((scale, at))
    options.sort(key=lambda o: o[0])
    agree = _agreeing(program, reverse, puzzle, [at for _, at in options], batch)
    return next((at for (_, at), fair in zip(options, agree) if fair), point)


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


