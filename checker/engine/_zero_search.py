"""The zero search: draws found from the expected Jacobian itself, where its entries cross zero,
and which inputs compete for an output (stored and shipped by `_zeros`).

A constant rounded to nine digits is right to 1e-9 relatively everywhere, and only wrong where
an entry of the Jacobian crosses zero: there the contract (`_tolerance`) allows 1e-12 of the
block's largest entry, and the rounding error is larger. Random draws never land there. So,
per puzzle and variant, `jax.jacfwd` (float64) is evaluated along a few segments through the
domain, and the points where an entry crosses zero are found (`_zero_lines.crossings`). A
kept zero then has its block shrunk (`_zero_shrink.shrink`): the smaller the block, the
smaller the mistake the contract shows there, down to where a right answer's rounding would
start to count. Zeros are also searched beside a tiny input entry (`_pinned`), with each
probability vector held nearly uniform (`_held`), and in the largest region beyond the domain
the catalog declares (`_beyond`); and among those left over, the ones whose entry moves most
when an argument is scaled are kept too (`_sensitivity`: a constant with too few digits acts
like such a scaling). Every draw is kept only where the ways of computing the Jacobian agree
well inside the contract (`_zero_shrink.agreeing`), so that no right answer is refused there.

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

Both are seed-independent (the segments come from a generator keyed by the puzzle and variant
alone): the zeros of the Jacobian are a property of `f`, not of a seed, so every seed checks
them, and a mistake found there is found on every seed.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from checker.engine._catalog import FLOAT_DTYPES, Puzzle
from checker.engine._zero_lines import (
    GRID,
    LINES,
    Crossing,
    Line,
    Sampler,
    alone,
    crossings,
    direction_of,
    evaluate,
    evaluate_all,
    jacobian,
    label_of,
    padded_to,
    point_at,
    segments,
    steps,
)
from checker.engine._zero_shrink import NOISE_SHARE, ZERO_ATOL, agreeing, moved_beside, shrink

ZEROS = 6  # at most this many zero-crossing draws per puzzle and variant


# ... and this many where every float argument is one entry (`cos`): its zeros are many (every
# multiple of pi over the frequency across ALONE_BAND), and at each the entry is the angle's
# rounding itself, which another rounding of the angle (`x / 5` for `0.2 * x`) misses at about a
# third of them: with 6 kept, three variants of 18 kept none such (red team RT39's F3).
ZEROS_ALONE = 16


@dataclass(frozen=True)
class Found:
    """What the lines found for one puzzle and variant."""

    zeros: tuple[tuple[str, tuple[np.ndarray, ...]], ...]  # (label, a value per argument)
    groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (argument, its competing groups)


def search(puzzle: Puzzle, sampler: Sampler) -> Found:
    if not any(a.differentiable for a in puzzle.args):
        return Found((), ())
    program = jacobian(puzzle)
    reverse = jacobian(puzzle, reverse=True)
    lines = segments(puzzle, sampler)
    grid = evaluate(program, puzzle, [point_at(puzzle, line, t) for line in lines for t in steps()])
    groups = _groups(puzzle, grid, _champions(program, puzzle, lines))
    batch = len(lines) * GRID
    kept = [(c, lines[c.line], "") for c in crossings(program, puzzle, sampler, lines, grid)]
    picked = _spread(kept, ZEROS_ALONE if alone(puzzle) else ZEROS)
    zeros = [found for i in sorted(picked) for found in _kept(program, reverse, puzzle, sampler, batch, *kept[i])]
    zeros += _pinned(program, puzzle, sampler, lines)
    zeros += _held(program, puzzle, sampler)
    beyond = _beyond(program, puzzle, sampler)
    chosen = _spread(beyond, BEYOND_ZEROS)
    zeros += [found for i in chosen for found in _kept(program, reverse, puzzle, sampler, batch, *beyond[i])]
    offset = _offset(program, puzzle, sampler)
    placed: list[int] = []
    for where in dict.fromkeys(w for _, _, w in offset):  # up to OFFSET_ZEROS at each level
        members = [i for i, (_, _, w) in enumerate(offset) if w == where]
        placed += [members[j] for j in _spread([offset[i] for i in members], OFFSET_ZEROS)]
    zeros += [found for i in placed for found in _kept(program, reverse, puzzle, sampler, batch, *offset[i])]
    # Then the zeros whose entry moves most when an argument is scaled, of those not kept yet.
    every = kept + beyond + offset
    taken = set(picked) | {len(kept) + i for i in chosen} | {len(kept) + len(beyond) + i for i in placed}
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
    fair = agreeing(program, reverse, puzzle, [point for _, point in zeros], batch)
    return Found(tuple(z for z, keep in zip(zeros, fair) if keep), groups)


def _spread(kept: list[tuple[Crossing, Line, str]], most: int) -> list[int]:
    """Up to `most` of `kept`: a zero of every block first, then the rest in order."""
    blocks = [c.block for c, _, _ in kept]
    firsts = [i for i, b in enumerate(blocks) if b not in blocks[:i]]
    return (firsts + [i for i in range(len(kept)) if i not in firsts])[:most]


def _kept(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int, c: Crossing, line: Line,
          where: str) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    """The draws of one crossing: its zero with the block shrunk, and beside it (`where`: how
    its line was drawn, for the labels)."""
    point = shrink(program, reverse, puzzle, sampler, batch, c, direction_of(puzzle, line))
    out = [(label_of(puzzle, c.block, c.entry, f"crossing zero{where}"), point)]
    beside = moved_beside(program, reverse, puzzle, sampler, batch, point, line, c.block, c.entry)
    if beside is not None:
        out.append((label_of(puzzle, c.block, c.entry, f"beside its zero{where}"), beside))
    return out


# Zeros in the largest region beyond the domain the catalog declares (`Arg.magnitudes` above 1):
# each argument that declares it scaled by it at both ends of LINES more segments, and up to
# BEYOND_ZEROS of the zeros found there kept (the first of each block first), shrunk and with a
# draw beside each like the others. There the terms that cancel at a zero are larger beside the
# block: attention's scores reach 12 with q and k at 3 times [-1, 1], and a 1/sqrt(2) written
# with 12 digits is off by 13 times the contract at such a zero, where it passed at every zero of
# the domain itself (red team RT39).
BEYOND_ZEROS = 2


def _beyond(program: Any, puzzle: Puzzle, sampler: Sampler) -> list[tuple[Crossing, Line, str]]:
    """The crossings along lines through the largest region beyond the domain, with their
    lines and where that is."""
    scale = max((m for a in puzzle.args for m in a.magnitudes if m > 1), default=None)
    if scale is None:
        return []
    which = [k for k, a in enumerate(puzzle.args) if scale in a.magnitudes]
    lines: list[Line] = [
        (tuple((np.asarray(v, np.float64) * scale).astype(v.dtype) if k in which else v for k, v in enumerate(start)),
         tuple((np.asarray(v, np.float64) * scale).astype(v.dtype) if k in which else v for k, v in enumerate(end)))
        for start, end in segments(puzzle, sampler, LINES, salt=300)]
    grid = evaluate(program, puzzle, [point_at(puzzle, line, t) for line in lines for t in steps()])
    where = f" with {', '.join(puzzle.args[k].name for k in which)} at {scale:g} times the domain"
    return [(c, lines[c.line], where) for c in crossings(program, puzzle, sampler, lines, grid)]


# Zeros of a normaliser that centres its input (a declared "variance" or "column variance",
# `Arg.unit_moments`) where its entries (each column's, for a column variance) share a large
# common value: LINES more segments whose ends are moved to a mean of OFFSET_LEVEL times the
# domain's edge (and LINES more at that of the largest region it declares beyond the domain) with
# their spread about it shrunk OFFSET_SPREAD times, and up to OFFSET_ZEROS of the zeros found
# there kept. A mean taken with 1/N written to 13 or 14 digits is off by that
# rounding times the mean, which the centring divides by the spread: beyond the contract at such
# a zero, nowhere else (red team RT40: `batch_norm`'s 1/3 as 0.3333333333333, `layer_norm`'s 1/6
# as 0.16666666666667, the latter only at 10 times its domain). A right answer's own centring
# loses eps times the mean over the spread there, which the agreement test keeps well inside the
# contract.
OFFSET_LEVEL = 0.9
OFFSET_SPREAD = 0.02
OFFSET_ZEROS = 2


def centred_args(puzzle: Puzzle) -> list[tuple[int, int | None]]:
    """The arguments a centring normaliser centres, with the axis it centres along (None: all)."""
    return [(k, 0 if "column variance" in a.unit_moments else None) for k, a in enumerate(puzzle.args)
            if a.differentiable and ("variance" in a.unit_moments or "column variance" in a.unit_moments)]


def _offset(program: Any, puzzle: Puzzle, sampler: Sampler) -> list[tuple[Crossing, Line, str]]:
    """The crossings along segments where each centred argument sits far from 0 with a small spread."""
    found: list[tuple[Crossing, Line, str]] = []
    for (k, axis), region in itertools.product(centred_args(puzzle), (1.0, None)):
        arg = puzzle.args[k]
        # In the domain, and in the largest region beyond it the argument declares (`magnitudes`).
        region = region or max((m for m in arg.magnitudes if m > 1), default=None)
        if region is None:
            continue
        level = OFFSET_LEVEL * max(abs(arg.low), abs(arg.high)) * region

        def moved(values: tuple[np.ndarray, ...], k: int = k, axis: int | None = axis,
                  level: float = level) -> tuple[np.ndarray, ...]:
            x = np.asarray(values[k], np.float64)
            near = level + (x - np.mean(x, axis=axis, keepdims=True)) * OFFSET_SPREAD
            return tuple(near.astype(v.dtype) if j == k else v for j, v in enumerate(values))

        ends = segments(puzzle, sampler, LINES, salt=400 + k + (region > 1))
        lines: list[Line] = [(moved(start), moved(end)) for start, end in ends]
        grid = evaluate(program, puzzle, [point_at(puzzle, line, t) for line in lines for t in steps()])
        where = (f" with {arg.name}'s entries{' (per column)' if axis == 0 else ''} near {level:g}, "
                 f"their spread shrunk {1 / OFFSET_SPREAD:g} times")
        found += [(c, lines[c.line], where) for c in crossings(program, puzzle, sampler, lines, grid)]
    return found


# Up to this many more zeros: those where the entry moves most, relative to its block's largest
# entry, when one float argument is scaled by 1 +- SCALING. A constant written with too few
# digits (1/sqrt(2) as 0.707106781187, attention's scale) acts like such a scaling, and is off
# by the most there: where that share is small it passes (red team RT39). Only zeros whose
# rounding noise is within NOISE_SHARE of the contract's allowance are chosen.
SCALED_ZEROS = 2


SCALING = 1e-6


def _sensitivity(program: Any, puzzle: Puzzle, kept: list[Crossing], batch: int) -> np.ndarray:
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
    leaves = evaluate_all(program, puzzle, points, batch)
    values = [float(leaves[kept[n].block][i, kept[n].entry]) for i, n in enumerate(owners)]
    base = np.array([float(np.max(np.abs(leaves[c.block][i]))) for i, c in enumerate(kept)])
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


def held_args(puzzle: Puzzle) -> list[int]:
    return [k for k, a in enumerate(puzzle.args)
            if a.sampler == "simplex" and a.differentiable and a.static is None and a.shape and a.shape[-1] > 1]


def _held(program: Any, puzzle: Puzzle, sampler: Sampler) -> list[tuple[str, tuple[np.ndarray, ...]]]:
    found: list[tuple[str, tuple[np.ndarray, ...]]] = []
    for k in held_args(puzzle):
        arg = puzzle.args[k]
        n = arg.shape[-1]
        shares = np.broadcast_to(1.0 + HELD_SPREAD * (np.arange(n) / (n - 1) - 0.5), arg.shape) / n
        held = np.array(shares, dtype=np.float64)
        held[..., -1] = 1.0 - np.sum(held[..., :-1], axis=-1)
        lines = [(tuple(held.astype(v.dtype) if j == k else v for j, v in enumerate(start)),
                  tuple(held.astype(v.dtype) if j == k else v for j, v in enumerate(end)))
                 for start, end in segments(puzzle, sampler, HELD_LINES, salt=k + 100)]
        batch = len(lines) * GRID
        points = [point_at(puzzle, line, t) for line in lines for t in steps()]
        grid = evaluate(program, puzzle, padded_to(points, batch))
        kept = crossings(program, puzzle, sampler, lines, grid)
        blocks = [c.block for c in kept]
        firsts = [i for i, b in enumerate(blocks) if b not in blocks[:i]]
        for i in (firsts + [i for i in range(len(kept)) if i not in firsts])[:HELD_ZEROS]:
            c = kept[i]
            label = f"{label_of(puzzle, c.block, c.entry)}, {arg.name} within {HELD_SPREAD:g} of uniform"
            found.append((label, c.point))
    return found


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


def pins_per_argument(puzzle: Puzzle) -> bool:
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
    choices = [[slot] for slot in slots] if pins_per_argument(puzzle) else [slots]
    for (start, end), among in itertools.product(lines, choices):
        k, j = among[int(rng.integers(len(among)))]
        # The argument's largest entry at its least along the line (a mix of the ends can be below
        # both): the pin stays under `level` of it wherever a zero is found.
        reach = min(float(np.max(np.abs(start[k] + t * (end[k] - start[k])))) for t in steps())
        value = float(rng.choice([-1.0, 1.0])) * level * reach
        ends = []
        for values in (start, end):
            moved = [np.array(v) for v in values]
            moved[k].reshape(-1)[j] = value
            ends.append(tuple(moved))
        pinned_lines.append((ends[0], ends[1]))
        pins.append((k, j))
    grid = evaluate(program, puzzle, [point_at(puzzle, line, t) for line in pinned_lines for t in steps()])
    kept = crossings(program, puzzle, sampler, pinned_lines, grid)
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
    before = evaluate(program, puzzle, padded_to([c.point for c in kept], batch))
    after = evaluate(program, puzzle, padded_to(snapped, batch))
    seen = [i for i, c in enumerate(kept)
            if abs(after[c.block][i, c.entry]) > PINNED_SEEN * float(np.max(np.abs(before[c.block][i])))]
    # With three arguments or more, a zero beside a tiny entry of each argument first (red team
    # RT35: attention's v snapped passed where both kept zeros were beside q and k); then a zero
    # of each block, then the rest.
    each: list[int] = []
    if pins_per_argument(puzzle):
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
        out.append((label_of(puzzle, c.block, c.entry, how), c.point))
    return out


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
    return evaluate_all(program, puzzle, points, len(lines) * GRID)


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
