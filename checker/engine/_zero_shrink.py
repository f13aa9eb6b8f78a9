"""A zero of the Jacobian made telling: its block shrunk around it (`shrink`), and a draw beside
it (`moved_beside`); and the test every draw of the zero search passes before it is kept
(`agreeing`): the ways of computing the Jacobian agree well inside the contract there, so that
no right answer is refused at it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checker.engine import _tolerance
from checker.engine._catalog import FLOAT_DTYPES, Puzzle
from checker.engine._draw import Draw
from checker.engine._zero_lines import (
    Crossing,
    Line,
    Sampler,
    evaluate,
    evaluate_all,
    noise_of,
    padded_to,
    probe,
    smallest_first,
)

# The contract's allowance at a zero, a share of the block's largest entry.
ZERO_ATOL = _tolerance.TOLERANCES["float64"][1]


# A draw of this search is kept only where four computations of the Jacobian agree within this
# share of the contract at every entry of every block: the checker's own oracles (jacfwd, and
# jacrev or the vjp's cross-check, compiled as `_oracles` compiles them) and this search's
# (jacfwd and jacrev, compiled for speed). Shrinking a block can leave other entries with more
# rounding than its new scale allows: gelu's slopes near x = -8 (its region 3 times the domain)
# are 1e-30, and the oracle's fused tanh, 4 ulps short of -1 there, makes them -1e-14, twice
# the contract of a block shrunk to 4e-3, where the reference answer and jacrev give 0.
AGREEMENT = 0.1


def agreeing(program: Any, reverse: Any, puzzle: Puzzle, points: list[tuple[np.ndarray, ...]],
              batch: int) -> list[bool]:
    """Per point, whether the oracles' jacfwd, their cross-check, this search's jacfwd
    (`program`) and its jacrev (`reverse`; None for a backward pass) all agree within AGREEMENT
    of the contract at every entry."""
    from checker.engine._oracles import _compute

    rtol, atol = _tolerance.TOLERANCES["float64"]
    fair: list[bool] = []
    for first in range(0, len(points), batch):
        chunk = points[first:first + batch]
        padded = padded_to(chunk, batch)
        expected, check = _compute([(puzzle, tuple(Draw("", p) for p in padded))])[0]
        others = [[np.asarray(leaf, np.float64).reshape(batch, -1) for leaf in check],
                  evaluate(program, puzzle, padded)]
        if reverse is not None:
            others.append(evaluate(reverse, puzzle, padded))
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


# Beside each zero, the entry at about this share of its block's largest entry (kept between
# BESIDE_BAND's ends): just above the contract's 1e-12 there, so an answer that snaps entries
# below any share of its block's scale larger than this (`where(abs(J) < 1e-10 * abs(J).max(),
# 0, J)`, red team RT17) is refused, where at the zero itself snapping loses nothing.
BESIDE = 2e-12


BESIDE_BAND = (1.2e-12, 1e-11)


BESIDE_STEPS = np.array([s * m * 10.0 ** -k for k in range(4, 16) for m in (1.0, 2.0, 5.0) for s in (1.0, -1.0)])


def moved_beside(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int,
                 point: tuple[np.ndarray, ...], line: Line, block: int, entry: int) -> tuple[np.ndarray, ...] | None:
    """`point` moved along its line to where the zero entry is BESIDE of its block's largest
    entry, or None when no step of BESIDE_STEPS lands inside BESIDE_BAND."""
    start, end = line
    points = [tuple((v + t * (e - s)).astype(v.dtype) if a.dtype in FLOAT_DTYPES and a.static is None else v
                    for a, v, s, e in zip(puzzle.args, point, start, end)) for t in BESIDE_STEPS]
    leaves = evaluate(program, puzzle, padded_to(points, batch))
    rows = leaves[block][: len(points)]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.abs(rows[:, entry]) / np.max(np.abs(rows), axis=1)
    inside = np.flatnonzero((share >= BESIDE_BAND[0]) & (share <= BESIDE_BAND[1]))
    order = [int(k) for k in sorted(inside, key=lambda k: abs(np.log(share[k] / BESIDE)))
             if sampler.valid(puzzle, points[k], structured=True)]
    agree = agreeing(program, reverse, puzzle, [points[k] for k in order], batch)
    return next((points[k] for k, fair in zip(order, agree) if fair), None)


SHRINK_VALUES = 48  # values each other entry tries, evenly over its domain


SHRINK_FLOOR = 1e-3  # the block's largest entry is brought down to no less than this share of it


# ... nor below where the entry's rounding noise (`noise_of`) is more than this share of the
# contract's allowance at a zero (1e-12 of the block's largest entry): there a right answer's own
# rounding, a few times jacfwd's, stays well inside it.
NOISE_SHARE = 1e-2


# A shrunk block keeps its zero while the entry is within this share of that allowance: it was
# rounding noise of the terms that cancel there, and stays that size while the block shrinks,
# which ZERO_ULPS of the smaller block would soon refuse (gelu's stopped near 1e-2, where a
# sqrt(2/pi) of 13 digits passed: red team RT39).
ZERO_SHARE = 0.1


def shrink(program: Any, reverse: Any, puzzle: Puzzle, sampler: Sampler, batch: int, crossing: Crossing,
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
        rows = evaluate_all(program, puzzle, points, batch)[block]
        return list(zip(np.max(np.abs(rows), axis=1).tolist(), rows[:, entry].tolist(),
                        np.sum(rows**2, axis=1).tolist()))

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
    probed = probe(program, puzzle, candidates, [direction] * len(candidates), [block] * len(candidates),
                    [entry] * len(candidates), batch)
    options = []
    for points, values, _ in probed:
        at = next((points[n] for n in smallest_first(values) if sampler.valid(puzzle, points[n], structured=True)),
                  None)
        if at is None:
            continue
        (scale, value, _), = measure([at])
        if fine(scale, value, max(floor, noise_of(values) / (NOISE_SHARE * ZERO_ATOL))) and scale < scale0:
            options.append((scale, at))
    options.sort(key=lambda o: o[0])
    agree = agreeing(program, reverse, puzzle, [at for _, at in options], batch)
    return next((at for (_, at), fair in zip(options, agree) if fair), point)
