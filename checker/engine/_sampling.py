"""Seeded input draws for a puzzle: stratified random draws, then draws built from structure.

Luck finds a mistake that lives everywhere; structure finds the ones that live on a sliver of
the input space. So after the random draws, each argument is put through a catalogue of special
structures for its kind (`structures`), every one of them on every seed:

- plain floats: a zero entry, two zeros, entries in each decade between 1e-7 and 1, each
  magnitude band (1e-7, 1e-4, 1e2, 1e3) alone and together with zeros, mixed magnitudes in one vector, equal
  entries; in a vector, every entry below float32's normal range and two entries whose product
  underflows; where f has a kink at 0 (relu), entries on both sides of it down to float64's
  smallest normal; where it has one at ties (sort), near-ties down to 1e-15 relative;
- indices (arguments with integer and half-integer edges): every integer and every half, values
  on both sides of them at 1 and 4 ulps and at 1e-14 to 1e-3, and vectors mixing all of these
  with plain values; a mask in [0, 1] (an index whose integers are 0 and 1) also entries 1
  and 4 ulps below 1 and 1e-300 above 0, where an answer that divides by 1 - m or by m goes wrong;
- probability vectors: one-hot at each position, near one-hot, one-hot but for 1 and for 4 ulps
  (a weight that many ulps below 1, another holding the rest, the others 1e-300: masks made
  from them are as close to 1 and to 0 as float64 tells apart), a zero entry, a near-tie;
- integer arguments: every value (scalars), every value somewhere (arrays), all repeated, all
  at the ends of the range.

Then structures of two arguments are combined pairwise (each structure of each argument meets
the other argument's at least once), and arguments are made to coincide: one equal to the other
or to a slice of it (a write that leaves the value unchanged), with the integer or one-hot
arguments pointing at that slice, one per axis, and again pointing at another slice (a write of
a value another slice holds: an answer that finds the written slice by comparing f's output
with the arguments sees two). The plain vectors are also scaled together to 1e-20 and 1e-17, and
arguments that declare magnitudes above 1 are drawn at the corners of the largest. No draw
lands where f has no derivative: never exactly on a kink (a zero where f has one, a tie, a tied
max), and a puzzle's guard keeps the kinks that only show in f itself away. Floats are drawn in
float64 (`_numerics`). Same seed, same draws.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from checker.engine import _domain, _kept_draws, _zeros
from checker.engine._catalog import FLOAT_DTYPES, GENERIC_EDGES, INT_DTYPES, Arg, Puzzle
from checker.engine._draw import Draw as Draw, stacked as stacked  # the sampler's output type, for its callers
from checker.engine._numerics import PRECISION
from checker.engine._settings import DEFAULT_SEED
from checker.engine._tolerance import CANCELLING_ATOL, CANCELLING_FLOOR

RANDOM_DRAWS = 6  # at least; more when an argument is small (see `_random_count`)
VALUES_PER_ARGUMENT = 60  # random values each floating argument takes in all (entries x draws)
# Magnitude bands: (label, low, high) of |entry|, drawn log-uniformly with random signs.
# Zeros also meet entries this small (an isclose(x, 0) is wrong there), and an argument of one
# entry is drawn this small alone (`_plain`).
MINUTE = ("minute", 1e-12, 1e-9)
BANDS = (("tiny", 1e-7, 1e-6), ("small", 1e-4, 1e-3), ("large", 1e2, 1e3), ("huge", 1e3, 1e4))
DOMINANT = ((5e2, 1e3), (5e3, 1e4))  # one entry this large among the others as drawn: the bands' tops
# Decades between 1e-7 and 1: a threshold or a small-angle shortcut anywhere below 1 is crossed.
NEAR_ZERO = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)
# How far from an integer or a half an index is put, on both sides.
LATTICE_OFFSETS = (1e-14, 1e-11, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 5e-4, 1e-3)
# And how many ulps from it, on both sides: an index 1 ulp from an integer is not one, so a
# tolerance as small as 1e-15 or machine epsilon is still wrong there. 0's ulps are subnormal
# (flushed by XLA), so at 0 the offsets are absolute (LATTICE_ULPS_AT_ZERO, by ulp count).
LATTICE_ULPS = (1, 4)
LATTICE_ULPS_AT_ZERO = {1: 1e-300, 4: 1e-17}
# How close to a kink at zero (relu), or to a tie (sort, relative), an entry is put.
# Down to float64's smallest normal (2.2e-308): subnormals are flushed to 0 by XLA.
KINK_DISTANCES = (float(np.finfo(np.float64).tiny), 1e-306, 1e-300, 1e-100, 1e-15, 1e-12, 1e-9, 1e-7, 1e-6, 1e-5,
                  1e-4, 1e-3)
# How far apart the two leaders of a guarded max or argmin are put, in the units the guard
# measures its gap in (`_domain.GUARD_GAP`, 1e-6 of them): from just outside the guard, where an
# argmax that takes the first entry within 2e-6 of the max takes the runner-up, outwards.
GUARD_TIES = (1.05e-6, 1.5e-6, 2e-6, 3e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2)
# How close two entries are put where f has a kink at ties (sort), relative: down to a few ulps.
TIE_DISTANCES = (1e-15, 1e-12, 1e-9, 1e-7, 1e-5, 1e-3)
# And in ulps of the winner: 1 ulp apart, two floats no tolerance of machine epsilon (or 4 of
# them, or numpy's isclose at 1e-15) tells apart, which every comparison does.
TIE_ULP_COUNTS = (1, 4)
# Near-ties 1 ulp apart in the middle of a group's order, each in both orders (`_competing_middle`),
# and how many values it tries for one that `x / max(abs(x))` merges.
MIDDLE_TIES, MIDDLE_TRIES = 3, 64
# Exactly on a kink is never drawn; this close is (float64's smallest normal: closer is a
# subnormal, which XLA flushes to the kink itself).
STRUCTURE_GAP = float(np.finfo(np.float64).tiny)
# Two entries of an argument that avoids ties are this many ulps (of the larger) apart at least,
# once subnormals are flushed to 0 as XLA flushes them: relative, not absolute, since sort and
# max pool compare entries and never subtract them, so 3e-308 and 2.5e-308 (5e-309 apart, a
# subnormal difference) are told apart by every comparison, while two subnormals, or a subnormal
# and 0, are the same number to XLA: a tie, where no finite step resolves f.
TIE_ULPS = 1
# Near-ties at the bottom of float64 (sort, max pool), as (magnitude of the larger entry,
# relative gap): just above the smallest normal with a gap below it (a tie-breaking jitter of
# finfo.tiny * i reorders them), and at 1e-300 with a gap below 1e-300 (a jitter of 1e-300 * i).
BOTTOM_TIES = ((3e-308, 1 / 6), (1e-300, 0.5))
# How many ulps below 1 a mask's weight is put (probability vectors, masks in [0, 1]), with
# other weights ALMOST_ZERO: 1 - M and M are then as small as float64 tells apart from 0.
MASK_ULPS = (1, 4)
# The smallest magnitude drawn: subnormals (below 2.2e-308) are flushed to 0 by XLA and
# TensorFlow on CPU, so a value closer to 0 would be 0 to the oracles and not to numpy.
ALMOST_ZERO = 1e-300
# Just above float64's smallest normal (2.2e-308): a linear f scaled by a factor below 1 gives a
# subnormal there, which XLA flushes to 0, so a slope computed as f(x) / x is 0 (red team, round 14).
SMALLEST_NORMALS = (2.25e-308, 2.4e-308)  # so f(x) is subnormal for every factor below 0.93
# The magnitudes an argument of one entry takes, one in each cell of this grid: (lowest, cells
# per decade), up to 1 or the domain's edge.
GRID = (1e-4, 20)
# Below the GRID, down to 1e-12, ten cells per decade: a shortcut there is a dropped term whose
# error grows linearly (the slope 1/2 of gelu below 1e-7, red team RT17), wrong in a band a
# sixth of a decade wide under its threshold; a series' quadratic error is inside the contract.
FINE_GRID = (1e-12, 10)
# In a sweep (an argument of several entries) the bottom of the normal range is SMALLEST_NORMALS,
# as for one entry, where only XLA judges (a variant's f(x) / x scaled by 0.25 or 0.5 is 0 there:
# red team RT19). Where TensorFlow judges too (the indexing chapter) it is 1e-307 to 2e-307: times
# a factor below 0.11 (`neg`'s -0.1) still subnormal, while times a variant's scale of 0.25 it
# stays normal, where TensorFlow and XLA flush alike (at 2.25e-308, TensorFlow's Jacobian of a
# lookup scaled by 0.25 was 0 where XLA's was not).
SWEEP_SMALLEST = (1e-307, 2e-307)
# Entries below float32's smallest normal (1.2e-38) and far above float64's: an answer that
# computes in float32 flushes them (XLA flushes float32's subnormals) and gives 0 for a block
# proportional to them, while the float64 reference does not.
BELOW_FLOAT32 = (1e-41, 1e-39)
# Magnitudes a whole argument is also drawn at (log-uniform within each pair); near the bottom of
# the normal range, `_bottoms`.
WHOLE_TINY = ((1e-50, 3e-50), (1e-100, 3e-100), (1e-200, 3e-200), (1e-300, 3e-300))
# Two entries this size (log-uniform): their product underflows float64 (below 1e-380) while each
# alone, and the product of the others, does not: prod(x) / x_i is then 0 where the derivative is not.
UNDERFLOWING = (1e-205, 1e-195)
# Scales every plain argument (of more than one entry) is drawn at together: at 1e-20, squares
# and products of two entries (1e-40) are below float32's normal range; at 1e-17, every entry
# rounds to 0 at 15 decimals (an argsort or argmax of rounded values loses the order); at
# 1e-150, a block that is a difference or sum of them (a write's element - arr) is 1e-150 of
# itself, below a cleanup of "blocks under 1e-100" (red team RT36), and a product of two normal.
TOGETHER_SCALES = (1e-150, 1e-20, 1e-17)
TOGETHER_DRAWS = 2  # draws at each of TOGETHER_SCALES
# And once at 1 and 3 times every decade between: a shortcut taken when the whole argument is
# small (rms_norm's `eye / sqrt(eps)` where max |x| < 1e-7, or where mean(x^2) < 1e-15: red team
# RT17) is wrong just under its threshold, a threshold on a square or a mean at that of a root.
TOGETHER_DECADES = tuple(m * 10.0 ** -k for k in range(12, 0, -1) for m in (1.0, 3.0))
# Where the catalog says (`Puzzle.level_steps`: the normalisers, whose shortcut drops a term
# growing as x^2), at finer steps of the same decades too, every entry at the domain's edge times
# the scale, with signs balanced along the first axis (`_level_args`: entries of one sign would
# centre to 0 in a layer norm). The dropped term is a product of two entries, so it reaches the
# contract's edge only where the second largest entry is near the largest, and then in a band
# of a sixth of a decade under the threshold (red team RT19: `rms_norm` as `eye / sqrt(eps)`
# below 1e-8, wrong from 7e-9): random entries at 1 and 3 times a decade hit it on some seeds.
_TRIES = 12  # fresh random bases tried before a structure that a guard refuses is given up


# A structure makes one argument's values: from the draw so far (all arguments) and a generator.
Make = Callable[[list[np.ndarray], np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class Structure:
    """A named special input for one argument."""

    label: str
    make: Make
    paired: bool = True  # combined with the other arguments' structures (`_pairs`), or drawn alone only


def seed_for(puzzle: Puzzle, seed: int) -> np.random.Generator:
    """The generator for one puzzle's draws: stable across runs, machines and Python versions."""
    return np.random.default_rng([seed, zlib.crc32(puzzle.name.encode())])


def _dtype(arg: Arg) -> str:
    return PRECISION if arg.dtype in FLOAT_DTYPES else arg.dtype


def _min_gap(arg: Arg) -> float:
    # Random draws keep well away from a kink or a tie; structures go close on purpose.
    return (arg.high - arg.low) * 1e-4


def _size(arg: Arg) -> int:
    return max(1, int(np.prod(arg.shape)))


# ---- random draws -------------------------------------------------------------------------


def _random(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    if arg.static is not None:
        return np.asarray(arg.static, dtype=arg.dtype)
    if arg.dtype in INT_DTYPES:
        return rng.integers(int(arg.low), int(arg.high) + 1, size=arg.shape).astype(arg.dtype)
    if arg.sampler == "simplex":
        # Dirichlet(1): uniform over probability vectors; no entry is exactly 0.
        return rng.dirichlet(np.ones(arg.shape[-1]), size=arg.shape[:-1]).astype(PRECISION)
    for _ in range(1000):
        values = rng.uniform(arg.low, arg.high, size=arg.shape)
        if _allowed(arg, values, _min_gap(arg)):
            return values.astype(PRECISION)
    raise RuntimeError(f"could not draw argument {arg.name} away from {arg.avoid} in 1000 tries")


def _random_count(puzzle: Puzzle) -> int:
    # Enough draws that the smallest floating argument takes VALUES_PER_ARGUMENT random values in
    # all: 60 draws for a scalar, 6 for a ten-entry vector (6 values per entry, one in each sixth
    # of the domain). Not 60 per entry: every draw costs every check, and mistakes that live on a
    # sliver of the domain are the structures' job, which no number of random draws replaces.
    sizes = [_size(a) for a in puzzle.args if a.dtype in FLOAT_DTYPES]
    return max(RANDOM_DRAWS, -(-VALUES_PER_ARGUMENT // min(sizes, default=VALUES_PER_ARGUMENT)))


def _stratified(arg: Arg, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """`n` random values of `arg`, each entry taking one value in each of n equal slices of the
    domain (in shuffled order), so no slice wider than two of them goes unvisited."""
    if arg.dtype not in FLOAT_DTYPES or arg.sampler != "uniform" or arg.static is not None:
        return [_random(arg, rng) for _ in range(n)]
    size = _size(arg)
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
        result.append(values.astype(PRECISION))
    return result


def _allowed(arg: Arg, values: np.ndarray, gap: float, groups: tuple[tuple[int, ...], ...] = ()) -> bool:
    # `gap`: STRUCTURE_GAP for a structure (as close to a kink as float64 tells apart), else an
    # absolute distance that random draws keep from kinks and between entries (`_min_gap`).
    # `groups`: where given, the entries that compete for one output (`_zeros`): f has a kink at
    # ties inside one group only, so entries of groups apart may be equal.
    raw = np.asarray(values, np.float64).reshape(-1)
    if "zero" in arg.avoid and np.min(np.abs(raw), initial=np.inf) < gap:
        return False
    if "ties" in arg.avoid and raw.size > 1:
        return all(_untied(raw[list(group)], gap) for group in groups) if groups else _untied(raw, gap)
    return True


def _untied(entries: np.ndarray, gap: float) -> bool:
    flat = np.sort(entries)
    if gap != STRUCTURE_GAP:
        return bool(np.min(np.diff(flat)) >= gap)
    flushed = np.sort(np.where(np.abs(flat) < STRUCTURE_GAP, 0.0, flat))
    larger = np.maximum(np.abs(flushed[:-1]), np.abs(flushed[1:]))
    return not np.any(np.diff(flushed) < TIE_ULPS * np.spacing(larger))


def _valid(puzzle: Puzzle, values: tuple[np.ndarray, ...], structured: bool = False,
           groups: dict[int, tuple[tuple[int, ...], ...]] | None = None) -> bool:
    """Every argument inside its domain's rules, and the puzzle's guard passes. `groups`: per
    argument, the entries that compete for one output, where ties between groups are allowed."""
    for k, (a, v) in enumerate(zip(puzzle.args, values)):
        gap = STRUCTURE_GAP if structured else _min_gap(a)
        if a.dtype in FLOAT_DTYPES and not _allowed(a, v, gap, (groups or {}).get(k, ())):
            return False
    return puzzle.guard is None or _domain.holds(puzzle.guard, values)


def _random_draw(puzzle: Puzzle, rng: np.random.Generator, number: int) -> Draw:
    for _ in range(1000):
        values = tuple(_random(a, rng) for a in puzzle.args)
        if _valid(puzzle, values):
            return Draw(f"random draw {number}", values)
    raise RuntimeError(f"{puzzle.name}: no draw passed the guard {puzzle.guard!r} in 1000 tries")


# ---- structures, by kind of argument -------------------------------------------------------


def _signs(arg: Arg, rng: np.random.Generator, n: int) -> np.ndarray:
    if arg.low >= 0:
        return np.ones(n)
    if arg.high <= 0:
        return -np.ones(n)
    signs = rng.choice([-1.0, 1.0], size=n)
    if n > 1:  # both signs in every vector
        signs[0], signs[1] = -1.0, 1.0
        rng.shuffle(signs)
    return signs


def _band(arg: Arg, low: float, high: float, rng: np.random.Generator) -> np.ndarray:
    n = _size(arg)
    magnitudes = np.exp(rng.uniform(np.log(low), np.log(high), size=n))
    return (_signs(arg, rng, n) * magnitudes).reshape(arg.shape)


def _one_signed_band(arg: Arg, lo: float, hi: float, rng: np.random.Generator) -> np.ndarray:
    """An argument of one entry between `lo` and `hi` (both of one sign), log-uniform in magnitude."""
    magnitude = np.exp(rng.uniform(np.log(abs(lo)), np.log(abs(hi))))
    return np.full(arg.shape, np.copysign(magnitude, lo))


def _with_zeros(arg: Arg, count: int, base: Make) -> Make:
    def make(values: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
        out = np.array(base(values, rng), dtype=np.float64)
        flat = out.reshape(-1)
        flat[rng.choice(flat.size, size=min(count, flat.size), replace=False)] = 0.0
        return out

    return make


def _using(fn: Callable[..., np.ndarray], *args: Any) -> Make:
    """A structure maker that needs only the generator: `fn(*args, rng)`."""

    def make(values: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
        return fn(*args, rng)

    return make


def _constant(arg: Arg, value: int, rng: np.random.Generator) -> np.ndarray:
    return np.asarray(value, dtype=arg.dtype)


def _plain(arg: Arg, smallest: tuple[float, float]) -> list[Structure]:
    """Uniform floats: zeros, magnitudes, near-zero entries, equal entries, kinks and near-ties.
    A sweep's bottom of the normal range is `smallest` (`_smallest`)."""
    size = _size(arg)
    random = _using(_random, arg)
    found: list[Structure] = []
    zeros_ok = "zero" not in arg.avoid
    bands = [(label, lo, hi) for label, lo, hi in BANDS]
    names = {"small": "small magnitudes", "large": "large magnitudes"}
    if zeros_ok:
        found.append(Structure("zero entry", _with_zeros(arg, 1, random)))
        if size > 1:
            found.append(Structure("two zero entries", _with_zeros(arg, 2, random)))
    for label, lo, hi in bands:
        found.append(Structure(names.get(label, f"{label} magnitudes"), _using(_band, arg, lo, hi)))
    if size == 1:
        # Alone, an entry is its Jacobian's whole scale (`cos`): the contract is relative to it
        # there, and an answer that snaps a near-zero input or entry to 0 (`isclose(x, 0)`,
        # `where(|J| < 1e-10, 0, J)`, `round(J, 15)`) is wrong however small it is (red team,
        # round 12).
        alone = (("a minute entry", *MINUTE[1:]), ("an entry below float32's normal range", *BELOW_FLOAT32),
                 ("an entry just above float64's smallest normal", *SMALLEST_NORMALS))
        for label, lo, hi in alone:
            for sign in (1, -1) if arg.low < 0 else (1,):  # both sides of 0 (`x % 2pi` is wrong below it only)
                found.append(Structure(f"{label}, {'positive' if sign > 0 else 'negative'} ({lo:g} to {hi:g})",
                                       _using(_one_signed_band, arg, sign * lo, sign * hi)))
        # A shortcut below a threshold (`where(|x| < 1e-3, -x, -sin(x))`) is wrong only in a band
        # just under it, a tenth of a decade wide (red team, round 14): a magnitude in every
        # twentieth of a decade, signs alternating, so each band holds one of each sign.
        for k, (lo, hi) in enumerate(itertools.pairwise(_grid_cells(arg))):
            sign = -1 if k % 2 and arg.low < 0 else 1
            side = "negative" if sign < 0 else "positive"
            found.append(Structure(f"an entry of magnitude {lo:.3g} to {hi:.3g}, {side}",
                                   _using(_one_signed_band, arg, sign * lo, sign * hi)))
    if zeros_ok:
        for label, lo, hi in (*bands, MINUTE) if size > 1 else bands:
            found.append(Structure(f"a zero among {label} magnitudes", _with_zeros(arg, 1, _using(_band, arg, lo, hi))))
            if size > 1:
                found.append(Structure(f"two zeros among {label} magnitudes",
                                       _with_zeros(arg, 2, _using(_band, arg, lo, hi))))
    if size > 1:
        sweep = _sweep_bands(arg, smallest)
        per_draw = max(1, size - 1)  # one entry stays random: the others are small beside it
        parts = -(-len(sweep) // per_draw)
        for k in range(parts):
            found.append(Structure(f"a sweep of magnitudes {smallest[0]:g} to 1 ({k + 1} of {parts})",
                                   _using(_sweep, arg, sweep[k * per_draw:(k + 1) * per_draw]), paired=False))
        found.append(Structure(f"entries below float32's normal range ({BELOW_FLOAT32[0]:g} to {BELOW_FLOAT32[1]:g})",
                               _using(_band, arg, *BELOW_FLOAT32)))
        found.append(Structure(f"two entries whose product underflows ({UNDERFLOWING[0]:g} to {UNDERFLOWING[1]:g})",
                               _using(_underflowing_pair, arg)))
        # The whole argument tiny, the others as drawn: a block proportional to it is its own
        # scale there, so "everything below a threshold is 0" (a guard on max |x|, a cleanup of
        # blocks below 1e-100) and a slope f / x where f flushes to 0 are wrong by all of it
        # (red team RT36: 17 puzzles, none drew an argument below 1e-42 and above the bottom).
        # Near the bottom of the normal range: `_bottoms`.
        for lo, hi in WHOLE_TINY:
            found.append(Structure(f"every entry {lo:g} to {hi:g} in magnitude", _using(_band, arg, lo, hi),
                                   paired=False))
        found.append(Structure("mixed magnitudes", lambda values, rng: _mixed_magnitudes(arg, rng, zeros_ok)))
        # One entry tiny among huge ones, at each place in turn: a sum of huge products then
        # swamps the tiny entry's own term (a finite difference loses it to rounding).
        for k in range(min(size, 10)):
            found.append(Structure(f"entry {k} tiny among huge ones", _using(_one_tiny, arg, k)))
    for lo, hi in ((1e-7, 1e-5), (1e-5, 1e-3), (1e-3, 1e-1)):
        ends = ("low", "high") if size == 1 else ("both",)
        for end in ends:
            where = "the ends" if end == "both" else f"the {end} end"
            found.append(Structure(f"within {hi:g} of {where} of the domain", _using(_near_ends, arg, lo, hi, end)))
    if zeros_ok:
        for lo, hi in itertools.pairwise(NEAR_ZERO):
            if lo <= max(abs(arg.low), abs(arg.high)):
                found.append(Structure(f"entries between {lo:g} and {hi:g}",
                                       _using(_band, arg, lo, min(hi, max(abs(arg.low), abs(arg.high))))))
    else:
        for d in KINK_DISTANCES:
            found.append(Structure(f"entries {d:g} either side of the kink at 0", _using(_near_zero, arg, d)))
    if "ties" in arg.avoid and size > 1:
        for d in TIE_DISTANCES:
            found.append(Structure(f"a near-tie ({d:g} apart)", _using(_near_tie, arg, d)))
        for gap in SORTED_GAPS:
            for descending in (False, True):
                label = (f"sorted {'descending' if descending else 'ascending'} but for neighbours (0, 1), (2, 3), "
                         f"... {gap:g} apart, swapped")
                found.append(Structure(label, _using(_nearly_sorted, arg, gap, descending), paired=False))
    elif size > 1:
        found.append(Structure("equal entries",
                               lambda values, rng: np.full(arg.shape, _random(arg, rng).reshape(-1)[0])))
    if size > 1:
        # Where ties are a kink, also level to a tolerance of 1e-11 of the size ("all tied, keep
        # the order": red team RT38) and to a few ulps between neighbours.
        for width in (ISCLOSE, *TIED_LEVELS) if "ties" in arg.avoid else (ISCLOSE,):
            found.append(Structure(f"every entry within {width:g} of one value, relatively, all different",
                                   _using(_nearly_level, arg, width), paired=False))
        if zeros_ok and arg.low <= 0.0 <= arg.high:
            found.append(Structure("every entry 0", _using(_zeros_of, arg), paired=False))
    if size > 1:
        # One entry far above the others, as drawn: a normaliser's entry of that coordinate
        # on itself then nearly cancels (rms_norm's (mean of the others' squares + eps) / r^3),
        # so a shortcut that drops eps once the mean square is large is off by eps over the
        # others' mean square, whatever its threshold below this draw's (red team RT25). At
        # the top of the `large` and `huge` bands.
        for lo, hi in DOMINANT:
            found.append(Structure(f"one entry of magnitude {lo:g} to {hi:g} among the others",
                                   _using(_one_dominant, arg, lo, hi)))
    return found


# Below `math.isclose`'s default relative tolerance (1e-9) and `np.allclose`'s: an answer that
# takes nearly equal entries as equal (a whole table as flat, a vector as sorted or tied) is wrong
# by the whole of what their differences carry (red team RT37: `linear_lookup`, `sort`).
ISCLOSE = 3e-10


def _nearly_level(arg: Arg, width: float, rng: np.random.Generator) -> np.ndarray:
    """Every entry within `width` (relative) of one value of half the domain's edge or more, all
    different where float64 tells them apart."""
    n = _size(arg)
    steps = rng.permutation(n) + rng.uniform(0.1, 0.9, size=n)  # distinct, at least 0.2 apart
    return _close_centre(arg, rng) * (1.0 + width * (steps / n - 0.5))


# How level an argument that avoids ties is also drawn (`_nearly_level`), below ISCLOSE.
TIED_LEVELS = (1e-12, 3e-14)


# The gaps (relative) of the swapped neighbours of a nearly sorted draw: inside `math.isclose`'s
# 1e-9, inside a tolerance of 1e-11 or 1e-13 of the largest entry, and a few ulps.
SORTED_GAPS = (ISCLOSE, 1e-12, 1e-15)


def _nearly_sorted(arg: Arg, gap: float, descending: bool, rng: np.random.Generator) -> np.ndarray:
    """Sorted along the last axis but for each pair of neighbours (0, 1), (2, 3), ... `gap` apart
    (relatively), swapped: `allclose` to its sorted self (red teams RT37 and RT38: "already sorted,
    so the identity"), with a swapped pair inside every window of a pool that starts at an even
    entry."""
    values = np.sort(_random(arg, rng), axis=-1)
    flat = values.reshape(-1, arg.shape[-1])
    for row in flat:
        for i in range(0, arg.shape[-1] - 1, 2):
            row[i + 1] = row[i] * (1.0 + np.sign(row[i]) * gap) if row[i] else STRUCTURE_GAP
            row[i], row[i + 1] = row[i + 1], row[i]
    return (flat[:, ::-1] if descending else flat).reshape(arg.shape)


def _zeros_of(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    """Every entry 0 (red team RT37: `if not np.any(x): return zeros`)."""
    return np.zeros(arg.shape)


def _close_centre(arg: Arg, rng: np.random.Generator) -> float:
    edge = max(abs(arg.low), abs(arg.high))
    signs = [sign for sign in (-1.0, 1.0) if arg.low <= sign * 0.5 * edge <= arg.high]
    return float(rng.choice(signs)) * rng.uniform(0.5, 0.99) * edge


def _grid_cells(arg: Arg) -> list[float]:
    """The edges of the FINE_GRID's and the GRID's cells, from FINE_GRID[0] up to 1 or the
    domain's edge if nearer."""
    top = min(1.0, max(abs(arg.low), abs(arg.high)))
    edges: list[float] = []
    for (low, per_decade), high in ((FINE_GRID, GRID[0]), (GRID, 1.0)):
        high = min(high, top)
        if high > low:
            cells = int(round(np.log10(high / low) * per_decade))
            edges += [float(v) for v in np.geomspace(low, high, max(cells, 1) + 1)][1 if edges else 0:]
    return edges


def _sweep_bands(arg: Arg, smallest: tuple[float, float]) -> list[tuple[float, float]]:
    """The signed bands an argument of several entries sweeps, one entry in each: the one-entry
    magnitudes (`_plain`'s `alone`, the normal range's bottom as `smallest`), both signs, then
    the FINE_GRID's and GRID's cells, signs alternating.

    An elementwise mistake lives in one entry whatever its neighbours hold (a shortcut below a
    threshold, a slope taken as f(x) / x that a flushed subnormal zeroes: red team, round 14), so
    these are dealt out `size - 1` to a draw (one entry stays random) rather than one to a draw
    as for one entry."""
    cells = _grid_cells(arg)
    bands = [(sign * lo, sign * hi) for lo, hi in (smallest, BELOW_FLOAT32, MINUTE[1:]) for sign in (1, -1)]
    bands += [((-1) ** k * lo, (-1) ** k * hi) for k, (lo, hi) in enumerate(itertools.pairwise(cells))]
    if arg.low >= 0 or arg.high <= 0:  # one sign only: every band on that side
        side = 1.0 if arg.low >= 0 else -1.0
        bands = list(dict.fromkeys((side * abs(lo), side * abs(hi)) for lo, hi in bands))
    return [(lo, hi) for lo, hi in bands if arg.low <= min(lo, hi) and max(lo, hi) <= arg.high]


def _sweep(arg: Arg, bands: list[tuple[float, float]], rng: np.random.Generator) -> np.ndarray:
    # One entry log-uniform in each band, the rest of the argument random, in a random order.
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    for k, (lo, hi) in enumerate(bands):
        out[k] = np.copysign(np.exp(rng.uniform(np.log(abs(lo)), np.log(abs(hi)))), lo)
    return rng.permutation(out).reshape(arg.shape)


def _underflowing_pair(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    # Two entries in UNDERFLOWING (random signs where the domain has both), the others random.
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    pair = rng.choice(out.size, size=2, replace=False)
    out[pair] = _signs(arg, rng, 2) * np.exp(rng.uniform(np.log(UNDERFLOWING[0]), np.log(UNDERFLOWING[1]), size=2))
    return out.reshape(arg.shape)


def _mixed_magnitudes(arg: Arg, rng: np.random.Generator, zeros_ok: bool) -> np.ndarray:
    # Every entry from another band (and a zero where f allows one), in a random order.
    n = _size(arg)
    pool = [_band(arg, lo, hi, rng).reshape(-1) for _, lo, hi in BANDS] + [_random(arg, rng).reshape(-1)]
    picks = np.array([pool[k % len(pool)][k] for k in range(n)])
    if zeros_ok:
        picks[0] = 0.0
    return rng.permutation(picks).reshape(arg.shape)


def _one_tiny(arg: Arg, k: int, rng: np.random.Generator) -> np.ndarray:
    out = _band(arg, 1e3, 1e4, rng).reshape(-1)
    out[k] = _band(Arg(arg.name, (), low=arg.low, high=arg.high), 1e-7, 1e-3, rng)
    return out.reshape(arg.shape)


def _one_dominant(arg: Arg, lo: float, hi: float, rng: np.random.Generator) -> np.ndarray:
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    out[rng.integers(out.size)] = float(_band(Arg(arg.name, (), low=arg.low, high=arg.high), lo, hi, rng))
    return out.reshape(arg.shape)


def _near_ends(arg: Arg, lo: float, hi: float, end: str, rng: np.random.Generator) -> np.ndarray:
    # Each entry lo to hi (times the domain's width) inside one of its ends: `end`, or both.
    n = _size(arg)
    inward = (arg.high - arg.low) * np.exp(rng.uniform(np.log(lo), np.log(hi), size=n))
    at_low = rng.permutation(np.arange(n) % 2 == 0) if end == "both" else np.full(n, end == "low")
    return np.where(at_low, arg.low + inward, arg.high - inward).reshape(arg.shape)


def _near_zero(arg: Arg, d: float, rng: np.random.Generator) -> np.ndarray:
    # Half the entries at +-d (both signs present), the rest random.
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    chosen = rng.permutation(out.size)[: max(1, out.size // 2)]
    signs = rng.choice([-1.0, 1.0], size=len(chosen))
    if len(chosen) > 1:
        signs[:2] = -1.0, 1.0
    out[chosen] = d * signs
    return out.reshape(arg.shape)


def _near_tie(arg: Arg, d: float, rng: np.random.Generator) -> np.ndarray:
    # Two entries d apart, relative to their size; the others random.
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    i, j = rng.choice(out.size, size=2, replace=False)
    out[j] = out[i] * (1 + d) + (d if out[i] == 0 else 0.0)
    return out.reshape(arg.shape)


def _lattice(label: str, arg: Arg) -> np.ndarray:
    """Every integer, or every k + 0.5, inside an argument's domain."""
    if label == "integer":
        return np.arange(np.ceil(arg.low), np.floor(arg.high) + 1)
    return np.arange(np.floor(arg.low), np.ceil(arg.high)) + 0.5  # k + 0.5 <= high


def _inside(arg: Arg, values: np.ndarray, offset: float) -> np.ndarray:
    # values + offset, mirrored to values - offset where that would leave the domain.
    moved = values + offset
    return np.where((moved < arg.low) | (moved > arg.high), values - offset, moved)


def _indices(arg: Arg) -> list[Structure]:
    """Float indices: on every lattice point, on both sides of them, and mixed in one vector."""
    found: list[Structure] = []
    size = _size(arg)
    for kind in ("integer", "half-integer"):
        if kind not in arg.edge_names:
            continue
        points = _lattice(kind, arg)
        found += [
            Structure(f"{kind} draw {i + 1}", _using(_cycle, arg, points, i))
            for i in range(len(points))
        ]
        for d in LATTICE_OFFSETS:
            for sign in (1.0, -1.0):
                found.append(Structure(
                    f"{d:g} {'above' if sign > 0 else 'below'} "
                    f"{'an integer' if kind == 'integer' else 'a half-integer'}",
                    _using(_near, arg, points, d * sign),
                ))
        for ulps in LATTICE_ULPS:
            for sign in (1.0, -1.0):
                for nearest in (False, True):
                    found.append(Structure(
                        f"{_ulps(ulps)} {'above' if sign > 0 else 'below'} "
                        + (f"the {kind} nearest 0" if nearest else
                           f"{'an integer' if kind == 'integer' else 'a half-integer'}"),
                        _using(_near_ulps, arg, points, ulps, sign, nearest),
                    ))
    if size > 1:
        for i in range(4):
            found.append(Structure(f"mixed lattice and plain entries {i + 1}",
                                   lambda values, rng: _mixed_lattice(arg, rng)))
    if _is_mask(arg):
        for ulps in MASK_ULPS:
            found.append(Structure(f"entries {_ulps(ulps)} below 1 and {ALMOST_ZERO:g} above 0",
                                   _using(_ulps_mask, arg, ulps)))
        # Nothing written, everything written (red team RT37: "an all-0 or all-1 mask: the slope in
        # the mask is 0").
        for end in (0.0, 1.0):
            found.append(Structure(f"every entry {end:g}", _using(_constant_mask, arg, end), paired=False))
    return found


def _is_mask(arg: Arg) -> bool:
    # An index in [0, 1] is a soft mask (assign_index_vectored): its integers 0 and 1 are its ends.
    return "integer" in arg.edge_names and (arg.low, arg.high) == (0.0, 1.0)


def _constant_mask(arg: Arg, end: float, rng: np.random.Generator) -> np.ndarray:
    return np.full(arg.shape, end)


def _ulps_mask(arg: Arg, ulps: int, rng: np.random.Generator) -> np.ndarray:
    # Each entry `ulps` ulps below 1 or ALMOST_ZERO (both kinds in a vector): 1 - m or m is then
    # as small as float64 tells apart from 0.
    n = _size(arg)
    near_one = rng.permutation(np.arange(n) % 2 == 0) if n > 1 else np.array([rng.random() < 0.5])
    return np.where(near_one, 1.0 - ulps * np.finfo(np.float64).epsneg, ALMOST_ZERO).reshape(arg.shape)


def _near(arg: Arg, points: np.ndarray, offset: float, rng: np.random.Generator) -> np.ndarray:
    # Each entry `offset` from a lattice point, chosen among those where that stays in the domain.
    inside = points[(points + offset >= arg.low) & (points + offset <= arg.high)]
    return rng.choice(inside, size=arg.shape) + offset


def _near_ulps(arg: Arg, points: np.ndarray, ulps: int, sign: float, nearest: bool,
               rng: np.random.Generator) -> np.ndarray:
    # Each entry `ulps` floats above (sign 1) or below a lattice point, among the points where
    # that stays in the domain; at 0, LATTICE_ULPS_AT_ZERO instead (its ulps are subnormal).
    # `nearest`: at the point nearest 0, where the offset is smallest (an index 1 ulp from 2 is
    # 4.4e-16 from it, more than machine epsilon; 1 ulp below 1 is 1.1e-16 from it).
    moved = points.astype(np.float64)
    for _ in range(ulps):
        moved = np.nextafter(moved, sign * np.inf)
    moved = np.where(points == 0, sign * LATTICE_ULPS_AT_ZERO[ulps], moved)
    keep = (moved >= arg.low) & (moved <= arg.high)
    inside, near = moved[keep], np.abs(points[keep])
    if nearest:
        inside = inside[near == near.min()]
    return rng.choice(inside, size=arg.shape)


def _cycle(arg: Arg, points: np.ndarray, i: int, rng: np.random.Generator) -> np.ndarray:
    # Entry e at points[(e + i) % n]: across the n draws every entry meets every point, and
    # within a draw the entries sit on different points.
    starts = np.arange(_size(arg)).reshape(arg.shape)
    return np.asarray(points[(starts + i) % len(points)], dtype=np.float64)


def _mixed_lattice(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    # Integers, halves, values near each, and plain values, in one vector (at least one of the
    # first two kinds and one of the others, so a whole-vector branch takes the wrong path).
    n = _size(arg)
    ints, halves = _lattice("integer", arg), _lattice("half-integer", arg)
    kinds = rng.permutation(np.arange(n) % 5)
    if n >= 2 and not (kinds < 2).any():
        kinds[0] = 0
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    for e, kind in enumerate(kinds):
        if kind in (0, 2):
            out[e] = rng.choice(ints)
        elif kind in (1, 3):
            out[e] = rng.choice(halves)
        if kind in (2, 3):
            out[e] = _inside(arg, np.asarray(out[e]), float(rng.choice(LATTICE_OFFSETS) * rng.choice([-1.0, 1.0])))
    return out.reshape(arg.shape)


def _simplex(arg: Arg) -> list[Structure]:
    """Probability vectors: one-hot at each position, nearly one-hot, a zero entry, a near-tie."""
    n = arg.shape[-1]
    found: list[Structure] = []
    if "one-hot" in arg.edge_names:
        found += [Structure("one-hot" if i == 0 else f"one-hot {i + 1}", _using(_hot, arg, i)) for i in range(n)]
    found.append(Structure("nearly one-hot", _using(_nearly_hot, arg, NEARLY_HOT[0])))
    # Deeper, drawn alone (the pairs above stay few enough to meet in full): a snap to one-hot
    # once 1 - max(w) is below a threshold drops weights the contract still sees down to about
    # 1e-12 (red team RT24's I1 and I2 at 1e-9).
    found += [Structure(f"nearly one-hot ({depth:g} from it)", _using(_nearly_hot, arg, depth), paired=False)
              for depth in NEARLY_HOT[1:]]
    if arg.shape[-1] > 1:
        found += [Structure(f"nearly one-hot ({depth:g} from it, in one other weight)",
                            _using(_nearly_hot_one, arg, depth), paired=False) for depth in NEARLY_HOT_ONE]
    if "one-hot" in arg.edge_names:
        for ulps in MASK_ULPS:
            found.append(Structure(f"one-hot but for {_ulps(ulps)}", _using(_ulps_hot, arg, ulps)))
    if n > 2:
        found.append(Structure("a zero weight", lambda values, rng: _zero_weight(arg, rng)))
    if n > 1:
        found.append(Structure("a near-tie of the two largest weights", lambda values, rng: _weight_tie(arg, rng)))
    return found


def _hot(arg: Arg, at: int | None, rng: np.random.Generator) -> np.ndarray:
    rows = int(np.prod(arg.shape[:-1]))
    n = arg.shape[-1]
    out = np.zeros((rows, n))
    places = rng.integers(0, n, size=rows) if at is None else (at + np.arange(rows)) % n
    out[np.arange(rows), places] = 1.0
    return out.reshape(arg.shape)


# How far from one-hot the nearly one-hot probability vectors are: 1 - max(w) about this.
NEARLY_HOT = (1e-6, 1e-9, 1e-11)
# Nearer still, the rest in one other weight, so that it alone is above the contract's 1e-12: a
# snap to one-hot at 5e-12 or 9e-12 passed every seed (red team RT29).
NEARLY_HOT_ONE = (4e-12, 1.5e-12)


def _nearly_hot(arg: Arg, depth: float, rng: np.random.Generator) -> np.ndarray:
    result: np.ndarray = (1 - depth) * _hot(arg, None, rng) + depth * _random(arg, rng)
    return result


def _nearly_hot_one(arg: Arg, depth: float, rng: np.random.Generator) -> np.ndarray:
    """Per row, one weight 1 - depth and another depth, the others 0."""
    top = _hot(arg, None, rng).reshape(-1, arg.shape[-1])
    n = arg.shape[-1]
    places = (np.argmax(top, axis=1) + rng.integers(1, n, size=len(top))) % n
    other = np.zeros_like(top)
    other[np.arange(len(top)), places] = 1.0
    result: np.ndarray = ((1 - depth) * top + depth * other).reshape(arg.shape)
    return result


def _ulps(ulps: int) -> str:
    return "1 ulp" if ulps == 1 else f"{ulps} ulps"


def _ulps_hot(arg: Arg, ulps: int, rng: np.random.Generator) -> np.ndarray:
    # Per row: one weight `ulps` ulps below 1, another holding the rest, any others ALMOST_ZERO:
    # a mask as close to 1 and to 0 as float64 tells apart (where 1 - M or M is divided by).
    rows = int(np.prod(arg.shape[:-1]))
    n = arg.shape[-1]
    rest = ulps * np.finfo(np.float64).epsneg  # 1 - rest is exact: the float `ulps` steps below 1
    out = np.full((rows, n), ALMOST_ZERO if n > 2 else 0.0)
    for r in range(rows):
        hot, other = rng.choice(n, size=2, replace=False)
        out[r, hot], out[r, other] = 1.0 - rest, rest
    return out.reshape(arg.shape)


def _zero_weight(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    out = _random(arg, rng).reshape(-1, arg.shape[-1])
    out[np.arange(len(out)), rng.integers(0, arg.shape[-1], size=len(out))] = 0.0
    result: np.ndarray = (out / out.sum(axis=1, keepdims=True)).reshape(arg.shape)
    return result


def _weight_tie(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    # Two weights 1e-5 apart, the rest small.
    n = arg.shape[-1]
    rows = int(np.prod(arg.shape[:-1]))
    out = np.full((rows, n), 0.1 / max(n - 2, 1) if n > 2 else 0.0)
    for r in range(rows):
        i, j = rng.choice(n, size=2, replace=False)
        rest = 1.0 - out[r].sum() + out[r, i] + out[r, j]
        out[r, i], out[r, j] = rest / 2 + 5e-6, rest / 2 - 5e-6
    return out.reshape(arg.shape)


def _integers(arg: Arg) -> list[Structure]:
    """Integer arguments: every value of a scalar; every value, repeats and the ends in an array."""
    low, high = int(arg.low), int(arg.high)
    values = np.arange(low, high + 1)
    if arg.shape == ():
        return [Structure(f"{arg.name} = {v}", _using(_constant, arg, int(v))) for v in values]
    found = [
        Structure("every value", lambda _, rng: ((rng.integers(0, len(values)) + np.arange(_size(arg))) % len(values)
                                                 + low).reshape(arg.shape).astype(arg.dtype)),
        Structure(f"all {low}", lambda _, rng: np.full(arg.shape, low, dtype=arg.dtype)),
        Structure(f"all {high}", lambda _, rng: np.full(arg.shape, high, dtype=arg.dtype)),
    ]
    if "repeated" in arg.edge_names:
        found.insert(0, Structure("repeated",
                                  lambda _, rng: np.full(arg.shape, rng.integers(low, high + 1), dtype=arg.dtype)))
    return found


def _is_index(arg: Arg) -> bool:
    return "integer" in arg.edge_names or "half-integer" in arg.edge_names


def is_plain(arg: Arg) -> bool:
    return (
        arg.dtype in FLOAT_DTYPES and arg.static is None and arg.sampler == "uniform"
        and not _is_index(arg) and bool(set(GENERIC_EDGES) & set(arg.edge_names))
    )


def _smallest(puzzle: Puzzle) -> tuple[float, float]:
    """The bottom of the normal range a sweep of `puzzle`'s arguments takes (SWEEP_SMALLEST)."""
    return SWEEP_SMALLEST if puzzle.tf_judged else SMALLEST_NORMALS


def structures(arg: Arg, smallest: tuple[float, float] = SMALLEST_NORMALS) -> list[Structure]:
    """The special structures `arg` is put through, by its kind (see the module's docstring);
    a sweep's bottom of the normal range is `smallest` (`_smallest` of its puzzle)."""
    if arg.static is not None:
        return []
    if arg.dtype in INT_DTYPES:
        return _integers(arg)
    if arg.sampler == "simplex":
        return _simplex(arg)
    if _is_index(arg):
        return _indices(arg)
    if is_plain(arg):
        return _plain(arg, smallest)
    return []


# ---- coincidences between arguments --------------------------------------------------------


@dataclass(frozen=True)
class _Coincidence:
    """Argument `target` made equal to `source[lead]`, the pointers (integer or one-hot
    arguments) at `aim`: at `lead`, a write of the value already there; elsewhere, a write of a
    value that another slice already holds."""

    source: int
    target: int
    lead: tuple[int, ...]
    sign: float = 1.0  # -1: the negation (x + y = 0 where f adds them)
    aim: tuple[int, ...] | None = None  # where the pointers point; None: at `lead`


def _coincidences(puzzle: Puzzle, rng: np.random.Generator) -> list[_Coincidence]:
    """Pairs of floating arguments where one is shaped like a slice of the other (or like it):
    with the pointers at that slice, and (where there are pointers) at another one."""
    found = []
    args = puzzle.args
    for s, t in itertools.permutations(range(len(args)), 2):
        a, b = args[s], args[t]
        if not (a.differentiable and b.differentiable) or not is_plain(b) or _is_index(a):
            continue
        lead_ndim = len(a.shape) - len(b.shape)
        if lead_ndim < 0 or a.shape[lead_ndim:] != b.shape or (lead_ndim == 0 and s > t and is_plain(a)):
            continue  # equal shapes: one coincidence per pair is enough
        leads = list(itertools.product(*(range(n) for n in a.shape[:lead_ndim])))
        if len(leads) > 9:
            leads = [leads[k] for k in rng.choice(len(leads), size=9, replace=False)]
        found += [_Coincidence(s, t, lead, sign) for sign in (1.0, -1.0) for lead in leads]
        # The same value with the pointers elsewhere: an answer that finds the written slice by
        # comparing f's output with the arguments (instead of using the index) sees two.
        lengths = a.shape[:lead_ndim]
        for n, lead in enumerate(leads):
            aim = _elsewhere(lead, lengths, n)
            if aim != lead and _point_at(puzzle, [np.zeros(b.shape) for b in args], _Coincidence(s, t, lead, aim=aim)):
                found.append(_Coincidence(s, t, lead, aim=aim))
    return found


def _elsewhere(lead: tuple[int, ...], lengths: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Another position than `lead`: the n-th draw moves one axis, or all of them, in turn (a
    slice in another row, in another column, or in neither), by 1 to len - 1 places."""
    patterns = [p for p in itertools.product((0, 1), repeat=len(lead)) if any(p)]
    if not patterns:
        return lead
    moved = patterns[n % len(patterns)]
    return tuple(
        (position + (1 + (n // len(patterns)) % (length - 1) if length > 1 else 0) * move) % length
        for position, length, move in zip(lead, lengths, moved)
    )


def _point_at(puzzle: Puzzle, values: list[np.ndarray], c: _Coincidence) -> str:
    """Make the integer and one-hot arguments of a coincidence draw select `c.aim` (`c.lead` if
    unset), one per axis, where their sizes fit (assign_index's index = the written row; x_index
    the row and y_index the column of tensor_write_2d's cell); returns what was set, for the label."""
    said = []
    source = puzzle.args[c.source]
    used: set[int] = set()  # one pointer per axis: x_index for the row, y_index for the column
    for axis, position in enumerate(c.lead if c.aim is None else c.aim):
        length = source.shape[axis]
        for k, arg in enumerate(puzzle.args):
            if k in (c.source, c.target) or k in used or arg.static is not None or arg.cotangent:
                continue
            if (arg.dtype in INT_DTYPES and arg.shape == () and int(arg.low) <= position <= int(arg.high)
                    and int(arg.high) - int(arg.low) + 1 == length):
                values[k] = np.asarray(position, dtype=arg.dtype)
            elif arg.dtype in FLOAT_DTYPES and arg.shape == (length,) and (arg.sampler == "simplex" or _is_index(arg)):
                hot = np.zeros(length)
                hot[position] = 1.0
                values[k] = hot
            else:
                continue
            said.append(f"{arg.name} at {position}")
            used.add(k)
            break
    return ", ".join(said)


# ---- putting it together -------------------------------------------------------------------


def _structured(puzzle: Puzzle, rng: np.random.Generator, label: str, apply: Callable[[list[np.ndarray]], None],
                groups: dict[int, tuple[tuple[int, ...], ...]] | None = None) -> Draw | None:
    """A draw with `apply` run on a random base; None when no base passes the domain and guard
    (ties allowed between the `groups` of an argument, where given)."""
    for _ in range(_TRIES):
        values = [_random(a, rng) for a in puzzle.args]
        apply(values)
        done = tuple(np.asarray(v).astype(_dtype(a)) for a, v in zip(puzzle.args, values))
        if all(v.shape == a.shape for a, v in zip(puzzle.args, done)) and _valid(puzzle, done, True, groups):
            return Draw(label, done)
    return None


def _set(k: int, structure: Structure, rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        values[k] = structure.make(values, rng)

    return apply


def plan(puzzle: Puzzle) -> list[tuple[str, list[str]]]:
    """Per argument, the structures it is put through (for the docs: seed-independent)."""
    smallest = _smallest(puzzle)
    return [(a.name, [s.label for s in structures(a, smallest)]) for a in puzzle.args if structures(a, smallest)]


def draws(puzzle: Puzzle, seed: int = DEFAULT_SEED) -> tuple[Draw, ...]:
    """The input draws for `puzzle`: stratified random draws first, then each argument's
    structures, then pairs of them, then coincidences between arguments. Kept on disk once
    made (`_kept_draws`)."""
    return _kept_draws.kept(puzzle, seed, _zeros.TABLE / f"{puzzle.name}.npz", lambda: _drawn(puzzle, seed))


def _drawn(puzzle: Puzzle, seed: int) -> tuple[Draw, ...]:
    """`draws`, made afresh."""
    rng = seed_for(puzzle, seed)
    n = _random_count(puzzle)
    columns = [_stratified(a, rng, n) for a in puzzle.args]
    result = [Draw(f"random draw {k + 1}", tuple(column[k] for column in columns)) for k in range(n)]
    if puzzle.guard is not None:  # a draw the guard refuses is drawn again
        result = [d if _valid(puzzle, d.values) else _random_draw(puzzle, rng, k + 1) for k, d in enumerate(result)]
    per_arg = [structures(a, _smallest(puzzle)) for a in puzzle.args]
    several = sum(1 for s in per_arg if s) > 1
    extra: list[Draw | None] = []
    for k, found in enumerate(per_arg):
        for s in found:
            label = f"{s.label} ({puzzle.args[k].name})" if several else s.label
            extra.append(_structured(puzzle, rng, label, _set(k, s, rng)))
    for a, b in itertools.combinations([k for k, s in enumerate(per_arg) if s], 2):
        sa, sb = ([s for s in per_arg[k] if s.paired] for k in (a, b))
        for first, second in _pairs(sa, sb):
            label = f"{puzzle.args[a].name}: {first.label}; {puzzle.args[b].name}: {second.label}"
            extra.append(_structured(puzzle, rng, label, _both(_set(a, first, rng), _set(b, second, rng))))
    for c in _coincidences(puzzle, rng):
        extra.append(_structured(puzzle, rng, _coincidence_label(puzzle, c, rng), _coinciding(puzzle, c, rng)))
    for what, make, distances in _GUARD_TIES_MAKE[puzzle.guard] if puzzle.guard is not None else ():
        for d in distances:
            for ahead in (True, False):  # the runner-up before the winner in index order, then after
                label = f"a near-tie of {what} ({d:g} apart, runner-up {'first' if ahead else 'last'})"
                extra.append(_structured(puzzle, rng, label, _using_values(make, d, ahead, rng)))
    together = _together(puzzle)
    for m in TOGETHER_SCALES if together else ():
        names = ", ".join(puzzle.args[k].name for k in together)
        for n in range(TOGETHER_DRAWS):
            label = f"{names} at {m:g} times the domain ({n + 1} of {TOGETHER_DRAWS})"
            extra.append(_structured(puzzle, rng, label, _scaled_args(together, m)))
    for m in TOGETHER_DECADES if together else ():
        names = ", ".join(puzzle.args[k].name for k in together)
        extra.append(_structured(puzzle, rng, f"{names} at {m:g} times the domain", _scaled_args(together, m)))
    for m in [10.0 ** -k * step for k in range(12, 0, -1) for step in puzzle.level_steps] if together else ():
        names = ", ".join(puzzle.args[k].name for k in together)
        label = f"{names} at {m:.3g} times the domain, every entry at its edge"
        extra.append(_structured(puzzle, rng, label, _level_args(puzzle, together, m, rng)))
    extra += _from_jacobian(puzzle, rng)
    for draw in extra:
        # A structure no base could satisfy on this seed leaves a random draw in its place: every
        # seed has as many draws, so the compiled oracles are reused from seed to seed.
        result.append(draw if draw is not None else _random_draw(puzzle, rng, len(result) + 1))
    return tuple(result)


# How many draws each declared magnitude and offset gets (`Arg.magnitudes`, `Arg.offsets`).
REGION_DRAWS = 3


def _from_jacobian(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    """Draws at the zeros of the expected Jacobian, near-ties inside the groups of entries that
    compete for one output (both orders, every distance of TIE_DISTANCES), and the regions the
    catalog declares (`magnitudes`, `offsets`). The zeros come from `_zeros` and are the same on every seed."""
    found = _zeros.found(puzzle, SAMPLER)
    extra: list[Draw | None] = [Draw(label, tuple(np.asarray(v).astype(_dtype(a)) for a, v in zip(puzzle.args, values)))
                                for label, values in found.zeros]
    for k, a in enumerate(puzzle.args):
        for moment in [m for m in a.unit_moments if m in ("variance", "column variance")]:
            for label, values in found.zeros[:CENTRED_ZEROS]:
                for c in CENTRED_MEANS:
                    moved = list(values)
                    moved[k] = _with_mean(np.asarray(values[k], np.float64), c, moment)
                    extra.append(Draw(f"{label}, {a.name} moved to a mean of {c:g} of its largest entry"
                                      f"{' (per column)' if moment == 'column variance' else ''}",
                                      tuple(np.asarray(v).astype(_dtype(b)) for b, v in zip(puzzle.args, moved))))
                for source in range(a.shape[1]) if moment == "column variance" else ():
                    moved = list(values)
                    moved[k] = _columns_like(np.asarray(values[k], np.float64), source, rng)
                    extra.append(Draw(f"every column of {a.name} within {ISCLOSE:g} of column {source}, entry by entry "
                                      f"(column {source} as in the draw with {label})",
                                      tuple(np.asarray(v).astype(_dtype(b)) for b, v in zip(puzzle.args, moved))))
    for k, groups in found.groups:
        name = puzzle.args[k].name
        for n, d in enumerate(TIE_DISTANCES):
            members = groups[n % len(groups)]
            for first in (True, False):
                label = f"a near-tie in one window of {name} ({d:g} apart, runner-up {'first' if first else 'last'})"
                extra.append(_structured(puzzle, rng, label, _competing(k, members, d, first, rng)))
        for n, ulps in enumerate(TIE_ULP_COUNTS):
            members = groups[n % len(groups)]
            for first in (True, False):
                label = (f"a near-tie in one window of {name} ({_ulps(ulps)} apart, runner-up "
                         f"{'first' if first else 'last'})")
                extra.append(_structured(puzzle, rng, label, _competing(k, members, 0.0, first, rng, ulps)))
        for n in range(MIDDLE_TIES):
            members = groups[n % len(groups)]
            for first in (True, False):
                label = (f"a near-tie in the middle of one window of {name} (1 ulp apart, runner-up "
                         f"{'first' if first else 'last'})")
                extra.append(_structured(puzzle, rng, label, _competing_middle(k, members, first, rng)))
        for n, (m, d) in enumerate(BOTTOM_TIES):
            members = groups[n % len(groups)]
            for first in (True, False):
                label = (f"a near-tie at the bottom of float64 in one window of {name} ({m:g} and "
                         f"{m * (1 - d):.3g}, runner-up {'first' if first else 'last'})")
                extra.append(_structured(puzzle, rng, label, _competing_at(k, members, m, d, first, rng)))
        if _strangers(groups, _size(puzzle.args[k])):
            for n, where in enumerate(STRANGER_PLACES):
                label = (f"one window's largest entry of {name} copied into {where} that shares no output with "
                         f"it ({n + 1} of {len(STRANGER_PLACES)})")
                extra.append(_structured(puzzle, rng, label, _tied_across(k, groups, where, rng), {k: groups}))
    scales = sorted({m for a in puzzle.args for m in a.magnitudes})
    for m in scales:
        names = ", ".join(a.name for a in puzzle.args if m in a.magnitudes)
        # Said in the label: that is where an answer computed in float32 flushes to 0.
        tiny = all(m * max(abs(a.low), abs(a.high)) < np.finfo(np.float32).tiny for a in puzzle.args
                   if m in a.magnitudes)
        beyond = ", below float32's range" if tiny else ""
        for n in range(REGION_DRAWS):
            label = f"{names} at {m:g} times the domain{beyond} ({n + 1} of {REGION_DRAWS})"
            extra.append(_structured(puzzle, rng, label, _scaled(puzzle, m)))
    extra += _corners(puzzle, rng)
    extra += _flat_segments(puzzle, rng)
    extra += _blends(puzzle, rng)
    extra += _bottoms(puzzle, rng)
    extra += _without_generic(puzzle, rng)
    for k, a in enumerate(puzzle.args):
        for spread in a.spreads:
            for n in range(REGION_DRAWS):
                label = (f"{a.name}: entries within {spread:g} of one another, relatively, at half the domain's edge "
                         f"or beyond ({n + 1} of {REGION_DRAWS})")
                close = Structure(label, _using(_close_together, a, spread))
                extra.append(_structured(puzzle, rng, label, _set(k, close, rng)))
        for spread in a.cancelling_spreads:
            for n in range(REGION_DRAWS):
                how = f"entries within {spread:g} of one another, relatively" if spread else "every entry equal"
                label = (f"{a.name}: {how}, where the Jacobian cancels: compared to {CANCELLING_ATOL:g} of each "
                         f"block's largest entry ({n + 1} of {REGION_DRAWS})")
                close = Structure(label, _using(_close_together, a, spread))
                draw = _structured(puzzle, rng, label, _set(k, close, rng))
                extra.append(None if draw is None else replace(draw, atol=CANCELLING_ATOL, floor=CANCELLING_FLOOR))
        for width in a.ranges:
            for n in range(RANGE_DRAWS):
                label = (f"{a.name}: entries at two levels {width:g} apart, at half the domain's edge or beyond "
                         f"({n + 1} of {RANGE_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _set(k, Structure(label, _using(_two_levels, a, width)),
                                                                   rng)))
        aligned_at = (1.0, *[m for m in a.magnitudes if m > 1][-1:])  # and at the largest magnitude: scores beyond 1
        for spread, scale in itertools.product(a.aligned_spreads, aligned_at):
            other = next(j for j, b in enumerate(puzzle.args) if b.name == a.aligned_with)
            at = f", both at {scale:g} times the domain" if scale != 1 else ""
            for n in range(REGION_DRAWS):
                label = (f"{a.name}'s rows along one axis, {a.aligned_with}'s entries on it within {spread:g} of one "
                         f"another, relatively{at}: every row of scores allclose ({n + 1} of {REGION_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _aligned(puzzle, k, other, spread, rng, scale)))
        for size in a.flat_products:
            other = next(j for j, b in enumerate(puzzle.args) if b.name == a.aligned_with)
            zeros = (f", {a.uniform_zeros} set where the blocks cross zero under uniform weights"
                     if a.uniform_zeros else "")
            for n in range(REGION_DRAWS):
                label = (f"{a.name} scaled until its products with {a.aligned_with}'s rows are all below "
                         f"{size:g}{zeros} ({n + 1} of {REGION_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _flat_products(puzzle, k, other, size, rng)))
        for lead in a.aligned_leads:
            other = next(j for j, b in enumerate(puzzle.args) if b.name == a.aligned_with)
            for n in range(RANGE_DRAWS):
                zeroed = f", {a.aligned_leads_zero}'s row there 0" if a.aligned_leads_zero else ""
                label = (f"{a.name}'s rows equal along one axis, {a.aligned_with}'s entries on it one ahead: every row "
                         f"that sees it leads by {lead:g} to {lead * (1 + ALIGNED_LEAD_SPAN):g}{zeroed} ({n + 1} of "
                         f"{RANGE_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _aligned_lead(puzzle, k, other, lead, rng)))
        for lead in a.row_leads:
            label_arg = next((j for j, b in enumerate(puzzle.args) if b.name == a.row_leads_label), None)
            on_tops = f", {a.row_leads_label} on them" if label_arg is not None else ""
            for n in range(RANGE_DRAWS):
                label = (f"{a.name}: every line's largest entry {lead:g} to {lead + LEAD_SPAN:g} ahead of the rest of "
                         f"its line{on_tops} ({n + 1} of {RANGE_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _rows_leading(a, k, label_arg, lead, rng)))
        for lead in a.leads:
            for n in range(REGION_DRAWS):
                label = (f"{a.name}: its largest entry {lead * a.lead_unit:g} to {(lead + LEAD_SPAN) * a.lead_unit:g} "
                         f"ahead of the others ({n + 1} of {REGION_DRAWS})")
                extra.append(_structured(puzzle, rng, label, _set(k, Structure(label, _using(_leading, a, lead)), rng)))
        for lo, hi in a.intervals:
            for n in range(REGION_DRAWS):
                label = f"{a.name}: every entry between {lo:g} and {hi:g} ({n + 1} of {REGION_DRAWS})"
                within = Structure(label, _using(_within, a, lo, hi))
                extra.append(_structured(puzzle, rng, label, _set(k, within, rng)))
        for row in range(a.shape[0]) if a.zero_rows else ():
            label = f"{a.name}: row {row} all zeros, the others as drawn"
            extra.append(_structured(puzzle, rng, label, _set(k, Structure(label, _using(_zero_row, a, row)), rng)))
        for m in a.edge_magnitudes:
            label = f"{a.name}: every entry {m:g} in magnitude, random signs"
            edge = Structure(label, _using(_at_edge_magnitude, a, m))
            extra.append(_structured(puzzle, rng, label, _set(k, edge, rng)))
        for moment in a.unit_moments:
            for off in UNIT_OFFSETS:
                at = "exactly 1" if off == 0 else f"1 {'+' if off > 0 else '-'} {abs(off):g}"
                label = f"{a.name}: its {moment} {at}"
                unit = Structure(label, _using(_unit_moment, a, moment, off))
                extra.append(_structured(puzzle, rng, label, _set(k, unit, rng)))
        for lo, hi in a.one_entry_in:
            for n in range(REGION_DRAWS):
                label = (f"{a.name}: one entry between {lo:g} and {hi:g}, the others as drawn "
                         f"({n + 1} of {REGION_DRAWS})")
                alone = Structure(label, _using(_one_within, a, lo, hi))
                extra.append(_structured(puzzle, rng, label, _set(k, alone, rng)))
        for m in a.offsets:
            for n in range(REGION_DRAWS):
                label = (
                    f"{a.name}: entries close together far from 0 (a common offset of {m:g} to {OFFSET_DECADE * m:g}, "
                    f"a spread of {OFFSET_SPREAD[0]:g} to {OFFSET_SPREAD[1]:g}) ({n + 1} of {REGION_DRAWS})"
                )
                extra.append(_structured(puzzle, rng, label, _set(k, Structure(label, _using(_offset, a, m)), rng)))
            for n in range(RANGE_DRAWS):
                label = (
                    f"{a.name}: entries close together far from 0 (a common offset of {m:g} to {OFFSET_DECADE * m:g}, "
                    f"at two levels {OFFSET_TIGHT[0]:g} to {OFFSET_TIGHT[1]:g} of it apart) ({n + 1} of {RANGE_DRAWS})"
                )
                tight = Structure(label, _using(_offset_tight, a, m))
                extra.append(_structured(puzzle, rng, label, _set(k, tight, rng)))
            for width in a.ranges:
                label = (f"{a.name}: entries at two levels {width:g} apart, at a common value of {m:g} to "
                         f"{OFFSET_DECADE * m:g}")
                far = Structure(label, _using(_two_levels_far, a, width, m))
                extra.append(_structured(puzzle, rng, label, _set(k, far, rng)))
    return extra


# A declared offset (`Arg.offsets`) is drawn from m to OFFSET_DECADE * m (log-uniform, either sign),
# and each entry differs from it by OFFSET_SPREAD (log-uniform, random signs). There a one-pass
# variance E[x^2] - E[x]^2 loses about eps * m^2 to cancellation, up to 2e4 times the contract (median 600) at
# m = 1e3 with eps = 1e-5 added under the root, while a right answer's rounding stays below 1e-2
# of it (a spread of 1e-2 would put a right layer norm's y y^T term at 1.5 times the contract).
OFFSET_DECADE = 10.0
OFFSET_SPREAD = (1e-4, 1e-3)


def _offset(arg: Arg, m: float, rng: np.random.Generator) -> np.ndarray:
    return _far_centre(m, rng) + _band(arg, *OFFSET_SPREAD, rng)


# The same offsets, also with entries at two levels OFFSET_TIGHT apart, relatively to the centre
# (log-uniform): entries "equal up to rounding" by a relative test of 5e-9, where a shortcut takes
# a normaliser's weights as uniform, or layer norm's y as 0, is wrong by 26 to 480 times the
# contract (red team RT34's F13). Not closer: a right layer norm's centring keeps 1e-16 of the
# centre, 3e-8 of its spread at 3e-9 and beyond the contract's 1e-7 below 1e-9.
OFFSET_TIGHT = (3e-9, 4.8e-9)


def _offset_tight(arg: Arg, m: float, rng: np.random.Generator) -> np.ndarray:
    centre = _far_centre(m, rng)
    width = math.exp(rng.uniform(math.log(OFFSET_TIGHT[0]), math.log(OFFSET_TIGHT[1])))
    return centre * (1 + width * _upper_level(arg, rng).reshape(arg.shape))


def _far_centre(m: float, rng: np.random.Generator) -> float:
    """A centre of magnitude m to OFFSET_DECADE * m (log-uniform), either sign."""
    return float(rng.choice([-1.0, 1.0])) * math.exp(rng.uniform(math.log(m), math.log(OFFSET_DECADE * m)))


def _within(arg: Arg, low: float, high: float, rng: np.random.Generator) -> np.ndarray:
    """Every entry uniform in a declared interval (`Arg.intervals`)."""
    return rng.uniform(low, high, size=arg.shape)


def _zero_row(arg: Arg, row: int, rng: np.random.Generator) -> np.ndarray:
    """Row `row` (first axis) all zeros, the others as drawn (`Arg.zero_rows`)."""
    out = _random(arg, rng).astype(np.float64)
    out[row] = 0.0
    return out


def _at_edge_magnitude(arg: Arg, m: float, rng: np.random.Generator) -> np.ndarray:
    """Every entry m in magnitude, random signs (`Arg.edge_magnitudes`)."""
    result: np.ndarray = m * _signs(arg, rng, _size(arg)).reshape(arg.shape)
    return result


# Where a declared statistic (`Arg.unit_moments`) is drawn: exactly 1, and 3e-10 either side of it
# (relatively), inside `math.isclose`'s 1e-9 and a tolerance of 1e-9 on the difference.
UNIT_OFFSETS = (0.0, 3e-10, -3e-10)


def _unit_moment(arg: Arg, moment: str, off: float, rng: np.random.Generator) -> np.ndarray:
    """A random draw scaled about its mean (or 0, for the mean square and the sum of squares) until
    `moment` is 1 + off."""
    x = _random(arg, rng).astype(np.float64)
    axis = 0 if moment == "column variance" else None
    centre = np.zeros_like(x) if moment in ("mean square", "sum of squares") else np.mean(x, axis=axis, keepdims=True)
    statistic = np.mean((x - centre) ** 2, axis=axis, keepdims=True) * (x.size if moment == "sum of squares" else 1)
    result: np.ndarray = centre + (x - centre) * np.sqrt((1.0 + off) / statistic)
    return result


# A normaliser that centres its input (a declared "variance": `Arg.unit_moments`) has the same
# Jacobian wherever the input is moved by a constant (per column, for a "column variance"), so its
# first CENTRED_ZEROS zeros are also drawn moved to a mean of each of CENTRED_MEANS times the
# largest entry: nearly centred, where an answer that skips the centring below a tolerance
# (|mean| <= 1e-8 max |x|) is off by about the mean relatively, beyond the contract at a zero
# (red team RT38).
CENTRED_ZEROS = 2
CENTRED_MEANS = (5e-11, 5e-10, 5e-9)


def _columns_like(x: np.ndarray, source: int, rng: np.random.Generator) -> np.ndarray:
    """Every column of `x` column `source` times 1 + ISCLOSE (either sign, entry by entry). Columns
    normalised each on its own (a "column variance") then have nearly the same Jacobian block, the
    zero of column `source`'s block a near-zero of each: an answer that copies one block to the
    others once the columns are `isclose` is wrong there (red team RT38)."""
    out: np.ndarray = x.copy()
    for d in range(x.shape[1]):
        if d != source:
            out[:, d] = x[:, source] * (1.0 + ISCLOSE * rng.choice([-1.0, 1.0], size=x.shape[0]))
    return out


def _with_mean(x: np.ndarray, c: float, moment: str) -> np.ndarray:
    axis = 0 if moment == "column variance" else None
    centred = x - np.mean(x, axis=axis, keepdims=True)
    result: np.ndarray = centred + c * np.max(np.abs(x), axis=axis, keepdims=True)
    return result


def _one_within(arg: Arg, low: float, high: float, rng: np.random.Generator) -> np.ndarray:
    """One entry uniform in a declared interval (`Arg.one_entry_in`), the others as drawn."""
    out = _random(arg, rng).reshape(-1).astype(np.float64)
    out[rng.integers(out.size)] = rng.uniform(low, high)
    return out.reshape(arg.shape)


# A declared lead (`Arg.leads`) is drawn from lead to lead + LEAD_SPAN ahead of all the other
# entries, which lie within LEAD_BAND of one another: whatever line of the argument holds the
# top entry, it leads that line's runner-up by the lead to the lead + LEAD_SPAN + LEAD_BAND.
LEAD_SPAN = 0.15
LEAD_BAND = 0.05


def _leading(arg: Arg, lead: float, rng: np.random.Generator) -> np.ndarray:
    """One entry (at random) `lead` to `lead + LEAD_SPAN` ahead of all the others, which lie
    just below a common value in the domain (within LEAD_BAND): the lead holds in whatever line
    of the argument the top entry is, narrowly, so that leads just short of where the
    runner-up's weight drops below the contract are reached (red team RT25: a hard max above 27).
    All three are in units of `arg.lead_unit` (a softmax's temperature)."""
    unit = arg.lead_unit
    band = LEAD_BAND * unit
    flat = np.full(_size(arg), rng.uniform(arg.low + band, arg.high)) - rng.uniform(0, band, _size(arg))
    top = int(rng.integers(flat.size))
    flat[top] = float(np.max(np.delete(flat, top))) + rng.uniform(lead, lead + LEAD_SPAN) * unit
    return flat.reshape(arg.shape)


def _rows_leading(arg: Arg, k: int, label: int | None, lead: float,
                  rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Every line of argument `k` along its last axis `_leading` by `lead` on its own, each its
    own top; argument `label` (if any) set to each line's top (`Arg.row_leads`)."""

    def apply(values: list[np.ndarray]) -> None:
        line = replace(arg, shape=(arg.shape[-1],), lead_unit=1.0)
        rows = np.stack([_leading(line, lead, rng) for _ in range(_size(arg) // arg.shape[-1])])
        values[k] = rows.reshape(arg.shape)
        if label is not None:
            values[label] = np.argmax(rows, axis=1).reshape(arg.shape[:-1]).astype(values[label].dtype)

    return apply


def _close_together(arg: Arg, spread: float, rng: np.random.Generator) -> np.ndarray:
    """Entries within `spread` (relative) of a common value, whose magnitude is 0.5 to 0.99 of the
    domain's edge (a sign the domain holds): `allclose` to one another by numpy's default
    tolerance (1e-5 relative) while they differ by more than the contract's (1e-7)."""
    return _close_centre(arg, rng) * (1 + rng.uniform(-spread, spread, size=arg.shape))


# Draws per declared range (`Arg.ranges`): each puts other entries on the upper level.
RANGE_DRAWS = 2


def _two_levels(arg: Arg, width: float, rng: np.random.Generator, far: float | None = None) -> np.ndarray:
    """Entries at two levels `width` apart (each entry on either, both levels used), the lower
    a common value whose magnitude is 0.5 to 0.99 of the domain's edge, or `far` to ten times
    it (a declared offset, where a relative test of equality fires at a larger width), as
    `Arg.ranges` says: the differences between entries are `width`, wherever the lines run."""
    edge = max(abs(arg.low), abs(arg.high))
    signs = [sign for sign in (-1.0, 1.0) if arg.low <= sign * 0.5 * edge and sign * 0.99 * edge + width <= arg.high]
    base = float(rng.choice(signs)) * rng.uniform(0.5, 0.99) * edge if far is None else _far_centre(far, rng)
    return (base + width * _upper_level(arg, rng)).reshape(arg.shape)


def _upper_level(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    """Which of `arg`'s entries (flat) sit on the upper of two levels: each at random, both
    levels used in every draw."""
    upper = rng.random(size=_size(arg)) < 0.5
    upper[rng.permutation(upper.size)[:2]] = [True, False]
    return upper


def _two_levels_far(arg: Arg, width: float, far: float, rng: np.random.Generator) -> np.ndarray:
    return _two_levels(arg, width, rng, far)


def _aligned(puzzle: Puzzle, k: int, other: int, spread: float,
             rng: np.random.Generator, scale: float = 1.0) -> Callable[[list[np.ndarray]], None]:
    """The rows of argument `k` along one axis (their other entries 0, each 0.5 to 1 of the
    domain's edge on its side), and argument `other`'s entries on that axis `_close_together`:
    every row of `k @ other.T` is `allclose` while `other`'s rows are not. Its other axes stay
    random, so that the Q block (a sum of `other`'s rows weighted to cancel) keeps entries of
    its own size: rows of `other` close together as a whole only to a looser tolerance
    (`Arg.cancelling_spreads`). `scale` multiplies the aligned rows and entries: scores beyond 1,
    where a relative flatness test is wrong at smaller relative spreads."""
    a, b = puzzle.args[k], puzzle.args[other]
    held = next((j for j, c in enumerate(puzzle.args) if c.name == a.uniform_zeros), None)

    def apply(values: list[np.ndarray]) -> None:
        axis = int(rng.integers(a.shape[1]))
        signs = _signs(a, rng, a.shape[0])
        rows = np.zeros(a.shape)
        rows[:, axis] = signs * rng.uniform(0.5, 1.0, size=a.shape[0]) * np.where(signs > 0, a.high, -a.low) * scale
        values[k] = rows
        entries = np.array(values[other], dtype=np.float64)
        entries[:, axis] = _close_together(replace(b, shape=(b.shape[0],)), spread, rng) * scale
        values[other] = entries
        if held is not None and spread < UNIFORM_BELOW:
            values[held] = _uniform_zeros(np.asarray(values[held], np.float64), entries, rng, q_block=False)

    return apply


# Aligned spreads below this set `Arg.uniform_zeros`: spreads inside `math.isclose`'s 1e-9, where
# a test of flat scores fires.
UNIFORM_BELOW = 1e-9


def _uniform_zeros(v: np.ndarray, k: np.ndarray, rng: np.random.Generator, q_block: bool = True) -> np.ndarray:
    """`v` with one entry of a column at the column's mean, and (with a second column, and
    `q_block`) one entry of another column where that column is uncorrelated with the column of
    `k` that varies most: under uniform weights, an entry of attention's K block
    (P_ic (V_c - f_i) q_i) and one of its Q block (sum_j P_ij (V_j - f_i) k_j) are then 0 for a row
    that sees every position. Not the Q block's where q's rows lie along one axis (`_aligned`):
    its entries on that axis are already cancellations of k's spread there, and with the
    others made small too, the block's largest entry is no longer of its own size."""
    out: np.ndarray = v.copy()
    columns = rng.permutation(v.shape[1])
    row = int(rng.integers(v.shape[0]))
    out[row, columns[0]] = np.mean(np.delete(out[:, columns[0]], row))
    if len(columns) > 1 and q_block:
        deviation = k - np.mean(k, axis=0)
        axis = int(np.argmax(np.max(np.abs(deviation), axis=0)))
        pivot = int(np.argmax(np.abs(deviation[:, axis])))
        rest = np.delete(np.arange(v.shape[0]), pivot)
        out[pivot, columns[1]] = -np.sum(out[rest, columns[1]] * deviation[rest, axis]) / deviation[pivot, axis]
    return out


def _flat_products(puzzle: Puzzle, k: int, other: int, size: float,
                   rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Argument `k` scaled until its largest product with a row of `other` is `size` (every
    product below it: nearly uniform weights), and `Arg.uniform_zeros` set for them."""
    held = next((j for j, c in enumerate(puzzle.args) if c.name == puzzle.args[k].uniform_zeros), None)

    def apply(values: list[np.ndarray]) -> None:
        rows = np.asarray(values[k], np.float64)
        entries = np.asarray(values[other], np.float64)
        values[k] = rows * (size / np.max(np.abs(rows @ entries.T)))
        if held is not None:
            values[held] = _uniform_zeros(np.asarray(values[held], np.float64), entries, rng)

    return apply


# The span of an aligned lead (`Arg.aligned_leads`), relative to it.
ALIGNED_LEAD_SPAN = 0.01


def _aligned_lead(puzzle: Puzzle, k: int, other: int, lead: float,
                  rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """The rows of argument `k` all sqrt(lead) along one axis (their other entries 0), and argument
    `other`'s entries on that axis sqrt(lead) / 2 for one (at random) and lead to 1% more below
    it, divided by sqrt(lead), for the others: every row of `k @ other.T` that sees the top entry
    and another leads by the lead to 1% more. The other's other axes stay random (as
    `_aligned`: the Q block keeps entries of its own size); the row of `Arg.aligned_leads_zero`
    at the top entry's position is 0."""
    zeroed = next((j for j, b in enumerate(puzzle.args) if b.name == puzzle.args[k].aligned_leads_zero), None)

    def apply(values: list[np.ndarray]) -> None:
        axis = int(rng.integers(puzzle.args[k].shape[1]))
        size = math.sqrt(lead)
        rows = np.zeros(puzzle.args[k].shape)
        rows[:, axis] = size
        values[k] = rows
        entries = np.array(values[other], dtype=np.float64)
        n = entries.shape[0]
        column = np.asarray(size / 2 - lead * (1 + rng.uniform(0, ALIGNED_LEAD_SPAN, size=n)) / size)
        top = int(rng.integers(n))
        column[top] = size / 2
        entries[:, axis] = column
        values[other] = entries
        if zeroed is not None:
            rows = np.array(values[zeroed], dtype=np.float64)
            rows[top] = 0.0
            values[zeroed] = rows

    return apply


def _competing(k: int, members: tuple[int, ...], d: float, first: bool,
               rng: np.random.Generator, ulps: int = 0) -> Callable[[list[np.ndarray]], None]:
    """Two entries of one group (who competes for one output) made its largest, `d` apart
    (relative), or `ulps` ulps of the winner apart, the runner-up before the winner in index
    order or after it."""

    def apply(values: list[np.ndarray]) -> None:
        flat = np.array(values[k], dtype=np.float64).reshape(-1)
        p, q = sorted(int(i) for i in rng.choice(members, size=2, replace=False))
        top = float(np.max(flat))
        gap = ulps * float(np.spacing(abs(top))) if ulps else d * max(abs(top), 1e-300)
        # Every other entry shifted (not clipped: no new ties) below the pair, so the near-tie is
        # the contest for the max of whatever window holds both, even where the group found on
        # the lines misses a member of the window.
        others = np.array([i for i in range(flat.size) if i not in (p, q)], dtype=int)
        ceiling = top - 2 * gap - 1e-3 * (1 + abs(top))
        if others.size and np.max(flat[others]) > ceiling:
            flat[others] -= np.max(flat[others]) - ceiling
        flat[p], flat[q] = (top - gap, top) if first else (top, top - gap)
        values[k] = flat.reshape(np.shape(values[k]))

    return apply


def _strangers(groups: tuple[tuple[int, ...], ...], size: int) -> list[tuple[int, int]]:
    """The pairs of an argument's `size` entries (first, second) that no group holds both of:
    they never compete for an output, so f is smooth where they are equal."""
    return [(p, q) for p in range(size) for q in range(size)
            if p != q and not any(p in group and q in group for group in groups)]


# Where `_tied_across` copies a group's largest entry: the first entry past the group that
# shares no output with it, the last one before it, and one anywhere.
STRANGER_PLACES = ("the next entry", "the entry before", "an entry")


def _tied_across(k: int, groups: tuple[tuple[int, ...], ...], where: str,
                 rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """The largest entry of one group copied into an entry that shares no group with it: an
    answer that hands an output's gradient to every entry equal to its max, wherever it is
    (`x == max` over the whole argument, not the window), gives it to both (red team RT24, C2).
    Copied just past the group or just before it, an answer whose windows are one entry too
    wide (`x[2 o : 2 o + 3]` for a width of 2) gives it to both too (red team RT25)."""

    def apply(values: list[np.ndarray]) -> None:
        flat = np.array(values[k], dtype=np.float64).reshape(-1)
        strangers = _strangers(groups, flat.size)
        def side(q: int, g: tuple[int, ...]) -> bool:
            """Whether entry q lies where `where` says, beside group g."""
            if where == STRANGER_PLACES[0]:
                return q > max(g)
            return q < min(g) if where == STRANGER_PLACES[1] else True

        # A group with a stranger on that side of it (the last window has none past it).
        fit = [g for g in groups if any(side(q, g) for p, q in strangers if p in g)] or list(groups)
        group = fit[int(rng.integers(len(fit)))]
        top = max(group, key=lambda i: flat[i])
        others = [q for p, q in strangers if p == top]
        beside = [q for q in others if side(q, group)]
        if beside and where in STRANGER_PLACES[:2]:
            flat[min(beside) if where == STRANGER_PLACES[0] else max(beside)] = flat[top]
        elif others:
            flat[int(rng.choice(others))] = flat[top]
        values[k] = flat.reshape(np.shape(values[k]))

    return apply


def _competing_middle(k: int, members: tuple[int, ...], first: bool,
                      rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Two entries of one group 1 ulp apart between the others (where every pair of the group
    is compared: `sort`), just below a power of two in magnitude, where scaling the entries by
    a factor below 1 moves them to the next binade: chosen so that dividing by the largest
    magnitude (`x / max(abs(x))`, "normalise first") rounds the two to one number, which an
    answer then cannot order."""

    def apply(values: list[np.ndarray]) -> None:
        flat = np.array(values[k], dtype=np.float64).reshape(-1)
        p, q = sorted(int(i) for i in rng.choice(members, size=2, replace=False))
        others = [i for i in members if i not in (p, q)]
        rest = np.delete(flat, [p, q])
        largest = float(np.max(np.abs(rest))) if rest.size else 1.0
        lo, hi = (float(np.min(flat[others])), float(np.max(flat[others]))) if len(others) > 1 else (0.0, largest)
        low = high = 0.0
        for _ in range(MIDDLE_TRIES):
            v = rng.uniform(lo, hi)
            if v == 0.0:
                continue
            edge = 2.0 ** np.floor(np.log2(abs(v)))  # the power of two at the bottom of v's binade
            below = np.copysign(edge * (1 - rng.uniform(1e-3, 0.1) * 2.0 ** -8), v)  # just below it...
            if not lo < below < hi:
                continue  # ...and still between the others
            low, high = sorted((float(below), float(np.nextafter(below, np.inf))))
            if np.float64(low) / largest == np.float64(high) / largest:
                break
        if low == high:
            return  # nothing between the others (a window of two): left as drawn
        flat[p], flat[q] = (low, high) if first else (high, low)
        values[k] = flat.reshape(np.shape(values[k]))

    return apply


def _competing_at(k: int, members: tuple[int, ...], m: float, d: float, first: bool,
                  rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Two entries of one group made its largest, m and m (1 - d), the runner-up before the
    winner in index order or after it: every other entry made negative, so the pair is the
    contest for the max of whatever window holds both (BOTTOM_TIES)."""

    def apply(values: list[np.ndarray]) -> None:
        flat = -np.abs(np.array(values[k], dtype=np.float64).reshape(-1))
        p, q = sorted(int(i) for i in rng.choice(members, size=2, replace=False))
        flat[p], flat[q] = (m * (1 - d), m) if first else (m, m * (1 - d))
        values[k] = flat.reshape(np.shape(values[k]))

    return apply


def _scaled(puzzle: Puzzle, m: float) -> Callable[[list[np.ndarray]], None]:
    return _scaled_args([k for k, a in enumerate(puzzle.args) if m in a.magnitudes], m)


def _scaled_args(which: list[int], m: float) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        for k in which:
            values[k] = np.asarray(values[k], dtype=np.float64) * m

    return apply


# Corners of the largest declared magnitude region: every entry this close to its edge (relative,
# log-uniform), so that the scores of attention reach about 12.7 in magnitude at 3 times [-1, 1].
# The last row of each argument stays as drawn: with every row at a corner, every row's softmax
# saturates or sees equal keys, the Q block's largest entry falls to about 1e-11, and rounding
# of 1e-16 in a right answer's P (V - f) (a difference of numbers near 1) exceeds the contract
# relative to that scale (the reference answer failed on seed 7). One row of moderate scores
# over distinct keys keeps the block's scale near 1.
CORNER_INSET = (1e-4, 1e-2)
# Row signs of the region's arguments at its corners, (the first argument's, every other's):
# +1 every row positive, -1 every row negative, 0 rows alternating from +.
CORNER_SIGNS = ((1, 1), (1, -1), (1, 0), (0, 1))
# Corners with every row of the region's arguments set, the last included: per argument, each
# entry at the high edge (+1), the low edge (-1) or the middle of the domain (0), drawn where the
# arguments have these shapes. q rows (+,+), (+,+), (-,-) against k rows (-,-), (0,0), (+,+):
# row 0's score against key 0 is -12.7, the most negative the region allows, so under a causal
# mask row 0's masked weights are e^(c + 12.7) for a finite mask constant c (6e-17 at c = -50)
# where -inf gives exactly 0. Every row's softmax is saturated by a gap of 12.7 to its one
# runner-up (the next is 25.4 down), masked or not, so the Q and K blocks' largest entries are
# about 1e-5 and an entry of 1e-16 there exceeds the contract. The other arguments (v) are spread
# apart (`_spread`), so no entry is small by a chance cancellation of two values: there a right
# answer's rounding of 1e-16 in V - f would exceed the contract too (it did, on 0.1% of draws
# with v uniform; spread, the reference answer stays below 0.003 of it and a mask constant of -50
# is above 14 times it, on 3000 draws of either mask).
#
# q rows (+,+), (-,-), (+,-) against k rows (+,+), (-,-), (-,-): unmasked, row 0's top score
# leads the other two by 25.4; under a causal mask, row 1's leads its one other by as much. The
# runner-up weights, 1e-11 all told, are still above the contract. Row 2's scores are near 0,
# which keeps both blocks' scale near 1 (with that row at the middle instead, K's block was
# 0.03 at most and a right answer's rounding reached 0.2 of the contract; now 0.0065 on 1200
# draws). A shortcut that takes a row as one-hot once its largest weight is within 1e-9 of 1
# drops entries of 1e-10 there (red team RT24's C1: the unmasked variants saw no such row).
CORNER_PATTERNS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = (
    (((1, 1), (1, 1), (-1, -1)), ((-1, -1), (0, 0), (1, 1))),
    (((1, 1), (-1, -1), (1, -1)), ((1, 1), (-1, -1), (-1, -1))),
)
def _level_args(puzzle: Puzzle, which: list[int], m: float,
                rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Each argument of `which`: every entry m times its domain's edge, as many of each sign
    along the first axis as its length allows, in random order. Balanced, the entries stay
    level once their mean is taken out (a layer norm's centring): of one sign, they would all
    centre to 0, and the term a shortcut drops with them."""

    def apply(values: list[np.ndarray]) -> None:
        for k in which:
            a = puzzle.args[k]
            edge = m * max(abs(a.low), abs(a.high))
            length, rest = a.shape[0], math.prod(a.shape[1:])
            signs = np.resize([1.0, -1.0], length)
            columns = [rng.permutation(signs * rng.choice([-1.0, 1.0])) for _ in range(rest)]
            values[k] = edge * np.stack(columns, axis=-1).reshape(a.shape)

    return apply


def _together(puzzle: Puzzle) -> list[int]:
    """The arguments scaled together by TOGETHER_SCALES: the plain ones of more than one entry
    (one alone gets its own small draws, `_plain`)."""
    return [k for k, a in enumerate(puzzle.args) if is_plain(a) and _size(a) > 1]


# A lookup's slope in its index is a_hi - a_lo, 0 where the two entries it interpolates between
# are equal. There an answer that takes the segment as flat when they are `isclose` (`rtol=1e-9`,
# red team RT19) is wrong by the whole slope, which the contract judges relative to itself (a
# block of one entry): draws with the index inside a segment whose ends are these shares apart
# (either sign), a right answer's a_hi - a_lo being exact there (Sterbenz). The shares go down to
# a few ulps (FLAT_ULPS): a guard of "equal up to rounding", 8 machine epsilons or 1e-14 of
# their size, passed every seed above 1e-13 (red team RT29).
FLAT_GAPS = (1e-7, 1e-10, 1e-13, 1e-15)
FLAT_ULPS = (1, 4)
# The segment's first end is at least this share of the vector's domain edge, so that its ulps
# are those of a normal number (XLA on CPU flushes a subnormal difference to 0).
FLAT_END = 0.1


def _flat_segments(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    """Per scalar index and vector it looks up (`linear_lookup`), a draw for each of FLAT_GAPS
    and FLAT_ULPS; per vector of indices (`bulk_superposition_lookup_corrected`), the vector's
    entries within each of FLAT_ULPS of one another, so that every slope is that small."""
    extra: list[Draw | None] = []
    for i, index in enumerate(puzzle.args):
        if not (_is_index(index) and index.dtype in FLOAT_DTYPES):
            continue
        for k, arr in enumerate(puzzle.args):
            if not (is_plain(arr) and len(arr.shape) == 1 and arr.shape[0] > 1):
                continue
            if index.shape != ():
                for ulps in FLAT_ULPS:
                    label = f"{arr.name}'s entries within {_ulps(ulps)} of one another"
                    extra.append(_structured(puzzle, rng, label, _level(k, arr, ulps, rng)))
                continue
            first = max(0, math.ceil(index.low))
            last = min(arr.shape[0] - 2, math.floor(index.high) - 1)
            if last < first:
                continue
            for gap in FLAT_GAPS:
                label = f"{index.name} between two entries of {arr.name} {gap:g} apart, relative"
                extra.append(_structured(puzzle, rng, label, _flat(i, k, arr, first, last, gap, 0, rng)))
            for ulps in FLAT_ULPS:
                label = f"{index.name} between two entries of {arr.name} {_ulps(ulps)} apart"
                extra.append(_structured(puzzle, rng, label, _flat(i, k, arr, first, last, 0.0, ulps, rng)))
            # The whole table `isclose` (red team RT37: "a flat table, so the slope is 0"), and flat
            # to 1e-11 of its size (RT38), down to a few ulps, the index inside it, where the slope is
            # not clipped to 0.
            for width in TABLE_LEVELS:
                label = f"every entry of {arr.name} within {width:g} of one value, relatively, {index.name} inside"
                extra.append(_structured(puzzle, rng, label, _level_inside(i, k, arr, first, last, width, rng)))
    return extra


# How level a lookup's whole table is drawn (relative), the index inside it: inside `math.isclose`'s
# 1e-9, inside a flatness test of 1e-11 or 1e-13 of the table's size, and neighbours a few ulps apart.
TABLE_LEVELS = (ISCLOSE, 1e-12, 1e-14, 3e-15)


def _level_inside(i: int, k: int, arr_arg: Arg, first: int, last: int, width: float,
                  rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        values[i] = np.asarray(int(rng.integers(first, last + 1)) + rng.uniform(0.2, 0.8))
        values[k] = _nearly_level(arr_arg, width, rng)

    return apply


def _flat(i: int, k: int, arr_arg: Arg, first: int, last: int, gap: float, ulps: int,
          rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """The index inside a segment whose ends are `gap` apart (relative), or `ulps` apart."""
    def apply(values: list[np.ndarray]) -> None:
        at = int(rng.integers(first, last + 1))
        values[i] = np.asarray(at + rng.uniform(0.2, 0.8))
        arr = np.array(values[k], dtype=np.float64)
        edge = max(abs(arr_arg.low), abs(arr_arg.high))
        if abs(arr[at]) < FLAT_END * edge:
            arr[at] = float(rng.choice([-1.0, 1.0])) * rng.uniform(2 * FLAT_END, 0.9) * edge
        direction = float(rng.choice([-1.0, 1.0]))
        arr[at + 1] = arr[at] * (1.0 + direction * gap) if not ulps else _stepped(arr[at], ulps, direction)
        values[k] = arr

    return apply


def _level(k: int, arr_arg: Arg, ulps: int, rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    """Every entry of argument `k` within `ulps` ulps of a common value of normal size."""
    def apply(values: list[np.ndarray]) -> None:
        edge = max(abs(arr_arg.low), abs(arr_arg.high))
        base = float(rng.choice([-1.0, 1.0])) * rng.uniform(2 * FLAT_END, 0.9) * edge
        steps = rng.integers(0, ulps + 1, size=arr_arg.shape)
        steps[int(rng.integers(steps.size))] = ulps  # the whole spread, at least once
        values[k] = np.array([_stepped(base, int(n), 1.0) for n in steps.reshape(-1)]).reshape(arr_arg.shape)

    return apply


def _stepped(value: float, ulps: int, direction: float) -> float:
    """`value` moved `ulps` representable floats up (direction 1) or down (-1)."""
    for _ in range(ulps):
        value = float(np.nextafter(value, direction * np.inf))
    return value


# A soft write f = (1 - m) a + m e (assign_index_vectored, tensor_write_2d) has the slope e - a in
# its weight m. An answer that takes it as (f - a) / m, "f's change from m = 0 per unit of m", with
# e - a only below a guard on m, loses about eps |a| / (m |e - a|) of it: wrong just above any
# guard once e is close to a (red team RT36). So: draws with the plain arguments nearly equal, the
# r-th one's entries r to r + 1/2 BLEND_GAPS (a share) above one common value, and one weight
# argument at each of BLEND_WEIGHTS (times 1 to 3): every entry of a mask, or one weight of a
# probability vector beside a nearly-one-hot one. The arguments stay half a gap apart or more:
# jax.jacfwd's own slope in tensor_write_2d is x e - x a, off by about eps |a| x, which must stay
# within the contract's share of x (e - a) (4e-10 of it at the smaller gap). A right answer's
# e - a is exact there (the two are within a factor 2: Sterbenz). At every other weight also at the
# ISCLOSE gap, below `math.isclose`'s 1e-9 (red team RT37: the slope 0 where a row of arr `isclose`
# e), compared to CANCELLING_ATOL of each block's largest entry: jacfwd's own slope is then off
# by eps / gap, 7e-7 of it.
BLEND_WEIGHTS = (1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4)
BLEND_GAPS = (1e-6, 1e-3)  # the second at every other weight


def _blends(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    """Per weight argument (a mask in [0, 1], a probability vector) of a puzzle with plain
    arguments: draws with that weight small and the plain arguments nearly equal."""
    plain = [k for k, a in enumerate(puzzle.args) if is_plain(a)]
    weights = [k for k, a in enumerate(puzzle.args) if is_weight(a)]
    extra: list[Draw | None] = []
    for k in weights if plain else ():
        arg = puzzle.args[k]
        names = ", ".join(puzzle.args[j].name for j in plain)
        for n, weight in enumerate(BLEND_WEIGHTS):
            for gap in (*BLEND_GAPS[: 1 + n % 2], *(() if n % 2 else (ISCLOSE,))):
                small = f"{weight:g} to {3 * weight:g}"
                where = f"every entry {small}" if _is_mask(arg) else f"one weight {small}, another the rest"
                label = (f"{arg.name}: {where}, with {names} nearly equal, each {gap / 2:g} to {1.5 * gap:g} from "
                         f"the next, relatively")
                draw = _structured(puzzle, rng, label, _blend(puzzle, k, plain, weight, gap, rng))
                if gap == ISCLOSE and draw is not None:  # jacfwd's own x e - x a is off by eps / gap there
                    draw = replace(draw, label=f"{label}: compared to {CANCELLING_ATOL:g} of each block's largest "
                                               "entry", atol=CANCELLING_ATOL)
                extra.append(draw)
    return extra


def is_weight(arg: Arg) -> bool:
    """Whether `arg` weighs other arguments in f: a soft mask in [0, 1] or a probability vector."""
    return arg.static is None and arg.dtype in FLOAT_DTYPES and (_is_mask(arg) or arg.sampler == "simplex")


def _blend(puzzle: Puzzle, k: int, plain: list[int], weight: float, gap: float,
           rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        arg = puzzle.args[k]
        small = weight * rng.uniform(1.0, 3.0, size=arg.shape)
        values[k] = small if _is_mask(arg) else _nearly_hot_one(arg, float(small.reshape(-1)[0]), rng)
        edge = min(max(abs(puzzle.args[j].low), abs(puzzle.args[j].high)) for j in plain)
        centre = float(rng.choice([-1.0, 1.0])) * rng.uniform(2 * FLAT_END, 0.9) * edge
        for r, j in enumerate(plain):  # the r-th plain argument r to r + 1/2 gaps above the centre
            values[j] = centre * (1.0 + gap * (r + rng.uniform(0.0, 0.5, size=puzzle.args[j].shape)))

    return apply


# A whole argument near the bottom of float64's normal range, the other plain arguments' entries
# at BOTTOM_OTHERS and every weight nearly one-hot (the others BOTTOM_OTHERS): f's terms, an entry
# times another argument's, are then subnormals, which XLA flushes to 0, while the slopes, the
# entries themselves (times factors of the puzzle's), stay normal. A slope taken as f / x (red
# team RT36: `mul`, `broadcast`, `broadcast_multiply`, the vectored and 2-D lookups) is 0 there.
# Right answers differ there by a few subnormals according to the order they multiply in (x / 5 *
# 2 flushes where 2 * x / 5 does not; an einsum's fused multiply-adds keep what an elementwise
# product flushes), and so do XLA and TensorFlow: such a draw is compared with an absolute floor of
# BOTTOM_FLOOR (`Draw.floor`): in the first band, slopes with factors down to 0.1 (`neg`'s) stay
# above it, and f's terms stay subnormal with factors up to 6 (the variants' largest scale). The
# second band is below a test of "zero up to underflow" at 1e-305 (red team RT38: `mul`,
# `matmul`, `broadcast`, the convolutions), where slopes with factors of 0.25 or more are still
# above the floor; smaller ones fall under it, which the contract then does not see.
BOTTOMS = ((2e-305, 4e-305), (6e-306, 9e-306))
BOTTOM_OTHERS = (1e-6, 1e-5)
BOTTOM_FLOOR = 64 * float(np.finfo(np.float64).tiny)


def _bottoms(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    """Each plain argument of several entries whole near the bottom of float64's normal range, the
    others small, compared with an absolute floor."""
    plain = [k for k, a in enumerate(puzzle.args) if is_plain(a)]
    extra: list[Draw | None] = []
    for k, band in itertools.product(plain, BOTTOMS):
        arg = puzzle.args[k]
        if _size(arg) == 1:
            continue  # one entry alone: its own draws just above the smallest normal (`_plain`)
        others = [j for j in plain if j != k]
        weights = [j for j, a in enumerate(puzzle.args) if is_weight(a)]
        said = [f"every entry of {arg.name} {band[0]:g} to {band[1]:g} in magnitude"]
        small = f"{BOTTOM_OTHERS[0]:g} to {BOTTOM_OTHERS[1]:g}"
        said += [f"{', '.join(puzzle.args[j].name for j in others)} at {small}"] if others else []
        said += [f"{', '.join(puzzle.args[j].name for j in weights)} nearly one-hot"] if weights else []
        label = (f"{said[0]}{', with ' + ' and '.join(said[1:]) if said[1:] else ''}, compared to "
                 f"{BOTTOM_FLOOR:.2g} absolute (subnormals flushed or kept)")
        draw = _structured(puzzle, rng, label, _at_bottom(puzzle, k, band, others, weights, rng))
        extra.append(None if draw is None else replace(draw, floor=BOTTOM_FLOOR))
    return extra


def _at_bottom(puzzle: Puzzle, k: int, band: tuple[float, float], others: list[int], weights: list[int],
               rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        values[k] = _band(puzzle.args[k], *band, rng)
        for j in others:
            values[j] = _band(puzzle.args[j], *BOTTOM_OTHERS, rng)
        for j in weights:
            w = puzzle.args[j]
            values[j] = (_nearly_hot(w, BOTTOM_OTHERS[1], rng) if w.sampler == "simplex"
                         else _band(w, *BOTTOM_OTHERS, rng) * (rng.random(w.shape) < 0.5)
                         + rng.uniform(0.2, 0.8, w.shape) * (rng.random(w.shape) >= 0.5))

    return apply


# Arguments that get no generic structures (`edges = []`: attention's q, k and v) still get, on
# every row and column of a matrix in turn, that row or column at each of SMALL_LINES of the
# others, and every entry 0: an answer that snaps a row or column below 1e-6 (or 1e-9) of the
# largest to 0, or returns zeros for an all-zero input, passed every seed there (red team RT37's
# F7, F8 and F13), and below 1e-10 too (RT38's F7). The contract sees a row down to about 1e-12
# of the largest entry, the last share.
SMALL_LINES = (5e-7, 5e-10, 5e-11, 5e-12)


def _without_generic(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    extra: list[Draw | None] = []
    for k, a in enumerate(puzzle.args):
        if a.edges != () or a.static is not None or a.dtype not in FLOAT_DTYPES or _size(a) < 2:
            continue
        if len(a.shape) == 2:
            for share, (axis, what) in itertools.product(SMALL_LINES, ((0, "row"), (1, "column"))):
                for line in range(a.shape[axis]):
                    label = f"{a.name}: {what} {line} at {share:g} of the others"
                    extra.append(_structured(puzzle, rng, label, _small_line(k, axis, line, share)))
        if a.low <= 0.0 <= a.high and "zero" not in a.avoid:
            label = f"{a.name}: every entry 0"
            extra.append(_structured(puzzle, rng, label, _set(k, Structure(label, _using(_zeros_of, a)), rng)))
    return extra


def _small_line(k: int, axis: int, line: int, share: float) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        moved = np.array(values[k], dtype=np.float64)
        index = (line, slice(None)) if axis == 0 else (slice(None), line)
        moved[index] = moved[index] * share
        values[k] = moved

    return apply


def _corner_region(puzzle: Puzzle) -> tuple[list[int], float]:
    """The arguments that declare magnitudes above 1, and the largest of them."""
    region = [k for k, a in enumerate(puzzle.args) if any(m > 1 for m in a.magnitudes)]
    return region, max((m for k in region for m in puzzle.args[k].magnitudes), default=1.0)


def _corners(puzzle: Puzzle, rng: np.random.Generator) -> list[Draw | None]:
    """Draws at the corners of the largest declared magnitude above 1: the region's arguments
    with every entry but the last row's at the edge, in each of CORNER_SIGNS, the other
    arguments random."""
    region, m = _corner_region(puzzle)
    if not region:
        return []
    names = ", ".join(puzzle.args[k].name for k in region)
    what = {1: "positive", -1: "negative", 0: "rows alternating in sign"}
    found: list[Draw | None] = []
    for first, others in CORNER_SIGNS:
        label = (f"{names} at the corners of {m:g} times the domain "
                 f"({puzzle.args[region[0]].name} {what[first]}, the others {what[others]})")
        found.append(_structured(puzzle, rng, label, _at_corner(puzzle, region, m, first, others, rng)))
    signs = {1: "+", -1: "-", 0: "0"}
    for pattern in CORNER_PATTERNS:
        if len(pattern) != len(region) or any(np.shape(p) != puzzle.args[k].shape for k, p in zip(region, pattern)):
            continue
        rows = ", ".join(f"{puzzle.args[k].name} rows " + ", ".join(f"({','.join(signs[e] for e in row)})" for row in p)
                         for k, p in zip(region, pattern))
        spread = [a.name for k, a in enumerate(puzzle.args) if k not in region and _spreads(a)]
        label = (f"{names} at the corners of {m:g} times the domain, every row ({rows})"
                 + (f", {', '.join(spread)} spread apart" if spread else ""))
        found.append(_structured(puzzle, rng, label, _at_corner_pattern(puzzle, region, m, pattern, rng)))
    return found


def _at_corner_pattern(puzzle: Puzzle, region: list[int], m: float, pattern: tuple[tuple[tuple[int, ...], ...], ...],
                       rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    # The region's arguments at the edges (or the middle) `pattern` names, the other plain floating
    # arguments spread apart (CORNER_PATTERNS).
    def apply(values: list[np.ndarray]) -> None:
        for k, a in enumerate(puzzle.args):
            if k in region:
                where = np.asarray(pattern[region.index(k)], dtype=np.float64)
                inset = np.exp(rng.uniform(np.log(CORNER_INSET[0]), np.log(CORNER_INSET[1]), size=a.shape))
                wobble = (a.high - a.low) / 2 * CORNER_INSET[1] * rng.uniform(-1, 1, size=a.shape)
                edge = np.where(where > 0, a.high, a.low) * (1 - inset)
                values[k] = m * np.where(where == 0, (a.low + a.high) / 2 + wobble, edge)
            elif _spreads(a):
                values[k] = _spread(a, rng)

    return apply


def _spreads(arg: Arg) -> bool:
    """Whether a corner pattern spreads this argument apart (one outside the region)."""
    return arg.differentiable and arg.static is None and arg.sampler == "uniform" and bool(arg.shape)


def _spread(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    """Along the first axis, the entries of each column one in each of as many equal slices of
    the domain, in the middle half of it (in shuffled order): any two at least a sixth of the
    domain apart for three rows."""
    rows = arg.shape[0]
    strata = rng.permuted(np.broadcast_to(np.arange(rows).reshape((rows,) + (1,) * (len(arg.shape) - 1)), arg.shape),
                          axis=0)
    return arg.low + (arg.high - arg.low) / rows * (strata + rng.uniform(0.25, 0.75, size=arg.shape))


def _at_corner(puzzle: Puzzle, region: list[int], m: float, first: int, others: int,
               rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        for n, k in enumerate(region):
            a = puzzle.args[k]
            pattern = first if n == 0 else others
            rows = a.shape[0] if a.shape else 1
            row_signs = np.where(np.arange(rows) % 2 == 0, 1.0, -1.0) if pattern == 0 else np.full(rows, float(pattern))
            signs = np.broadcast_to(row_signs.reshape((rows,) + (1,) * (len(a.shape) - 1)), a.shape)
            inset = np.exp(rng.uniform(np.log(CORNER_INSET[0]), np.log(CORNER_INSET[1]), size=a.shape))
            corner = np.where(signs > 0, a.high, a.low) * m * (1 - inset)
            if rows > 1:
                corner[-1] = values[k][-1]  # see CORNER_INSET
            values[k] = corner

    return apply


def _using_values(
    fn: Callable[[list[np.ndarray], float, bool, np.random.Generator], None], d: float, first: bool,
    rng: np.random.Generator,
) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        fn(values, d, first, rng)

    return apply


def _max_tie(values: list[np.ndarray], d: float, first: bool, rng: np.random.Generator) -> None:
    # tensor_lookup_2d: per channel, a second masked cell d below the winner, in units of the
    # largest masked value (what `_domain.unique_max` measures), before the winner in index order
    # or after it: an argmax taken on rounded values, or within a tolerance, picks the first of a tie.
    arr, x, y = (np.array(v, dtype=np.float64) for v in values[:3])
    weights = np.outer(x, y)
    scale = float(np.max(np.abs(weights[:, :, None] * arr)))
    for c in range(arr.shape[-1]):
        masked = weights * arr[:, :, c]
        best = np.unravel_index(np.argmax(masked), masked.shape)
        others = [ij for ij in np.ndindex(masked.shape) if ij != best and weights[ij] > 0 and (ij < best) == first]
        if not others:
            arr[..., c] = np.nan  # no second cell can compete: this base is refused
            continue
        other = others[int(rng.integers(len(others)))]
        arr[other + (c,)] = (masked[best] - d * scale) / weights[other]
    values[0] = arr


def _nearest_tie(values: list[np.ndarray], d: float, first: bool, rng: np.random.Generator) -> None:
    # asymmetrical_vectored_lookup: per row, a second value of v almost as near the target as
    # the nearest one, on the target's other side: its squared distance d more, in units of the
    # draw's largest squared distance (what `_domain.asymmetric` measures).
    v, k, g = (np.array(a, dtype=np.float64) for a in values[:3])
    targets = v[np.arange(len(v)), np.argmax(k, axis=1)] - g
    distance = (v - targets[:, None]) ** 2
    nearest = np.argmin(distance, axis=1)
    moved = []
    for b in range(len(v)):
        pick = int(np.argmax(k[b]))
        free = [i for i in range(v.shape[1]) if i not in (pick, int(nearest[b])) and (i < nearest[b]) == first]
        if not free:
            v[b] = np.nan  # no place on that side: this base is refused
            continue
        moved.append((b, free[int(rng.integers(len(free)))]))
    kept = np.ones(distance.shape, dtype=bool)
    for b, i in moved:
        kept[b, i] = False
    scale = float(np.max(distance[kept]))  # the moved values' old distances are gone
    for b, i in moved:
        side = np.sign(v[b, nearest[b]] - targets[b]) or 1.0
        v[b, i] = targets[b] - side * np.sqrt(distance[b, nearest[b]] + d * scale)
    values[0] = v


# asymmetrical_vectored_lookup's values all this close to their row's target (log-uniform, either
# side), the targets this far from 0 (either sign): squared distances of 1e-18 to 1e-14, whose
# differences are below the rounding of a formula that works on v and the target apart
# (v**2 - 2 v t + t**2, float32 copies), while the guard, relative to the draw's largest
# squared distance, still holds.
CLOSE_SPREAD = (1e-9, 1e-7)
CLOSE_TARGETS = (0.5, 0.9)
CLOSE_TIES = (1.05e-6, 1e-4, 1e-2)  # the GUARD_TIES drawn there
# And closer still, at each of these levels: every value of a row, and so g, about this far from
# an O(1) target (within a factor of 2), the looked-up value r not the nearest. Inside any relative
# tolerance (`math.isclose`'s 1e-9, 1e-12, 1e-13) a learner might use to say "the target is r
# already" and skip the argmin, or to stop at the first value "equal" to the target.
ISCLOSE_LEVELS = (5e-14, 1e-12, 1e-10)
# The tie drawn there. Rounding the target r - g to the ulp of an O(1) number moves each distance
# |v - t| by up to 5.6e-17, so a gap of squared distances by up to 4.4e-16 times the largest
# distance; a gap of ISCLOSE_TIE times the largest squared distance outlasts that tenfold at the
# lowest level (so `v - r + g` and `v - (r - g)` pick the same entry).
ISCLOSE_TIE = 0.1


def _close_tie(values: list[np.ndarray], d: float, first: bool, rng: np.random.Generator) -> None:
    # Every value of each row within CLOSE_SPREAD of the row's target, far from 0 (g is what puts
    # the target there, so it is as small), then the two nearest d apart as `_nearest_tie` puts them.
    v, k, g = (np.array(a, dtype=np.float64) for a in values[:3])
    for b in range(len(v)):
        target = float(rng.choice([-1.0, 1.0])) * rng.uniform(*CLOSE_TARGETS)
        spread = np.exp(rng.uniform(np.log(CLOSE_SPREAD[0]), np.log(CLOSE_SPREAD[1]), size=v.shape[1]))
        v[b] = target + rng.choice([-1.0, 1.0], size=v.shape[1]) * spread
        g[b] = v[b, int(np.argmax(k[b]))] - target
    values[0], values[2] = v, g
    _nearest_tie(values, d, first, rng)


def _isclose_tie(level: float) -> Callable[[list[np.ndarray], float, bool, np.random.Generator], None]:
    def apply(values: list[np.ndarray], d: float, first: bool, rng: np.random.Generator) -> None:
        # Every value of each row about `level` from the row's target, the nearest not the
        # looked-up value r (at 0.2 to 0.5 of r's distance, |g|; the others beyond 0.6 of it) and
        # placed so that `_nearest_tie` finds a value on the `first` side of it to tie with it.
        v, k, g = (np.array(a, dtype=np.float64) for a in values[:3])
        n = v.shape[1]
        for b in range(len(v)):
            target = float(rng.choice([-1.0, 1.0])) * rng.uniform(*CLOSE_TARGETS)
            pick = int(np.argmax(k[b]))
            apart = level * np.exp(rng.uniform(np.log(0.5), np.log(2.0), size=n))
            apart = np.maximum(apart, 0.6 * apart[pick])
            placed = [j for j in range(n)
                      if j != pick and any((i < j) == first for i in range(n) if i not in (j, pick))]
            nearer = placed[int(rng.integers(len(placed)))] if placed else [i for i in range(n) if i != pick][0]
            apart[nearer] = apart[pick] * rng.uniform(0.2, 0.5)
            v[b] = target + rng.choice([-1.0, 1.0], size=n) * apart
            g[b] = v[b, pick] - target
        values[0], values[2] = v, g
        _nearest_tie(values, d, first, rng)

    return apply


def _argmax_tie(values: list[np.ndarray], d: float, first: bool, rng: np.random.Generator) -> None:
    # asymmetrical_vectored_lookup: per row, k's two largest weights d apart (absolute, as
    # `_domain.asymmetric` measures them), the runner-up before the winner in index order or
    # after it; a pair whose winner and runner-up have different entries nearest the target, so
    # an argmax that takes the runner-up gets the backward pass wrong, not only the forward.
    v, k, g = (np.array(a, dtype=np.float64) for a in values[:3])
    n = k.shape[1]

    def nearest(b: int, at: int) -> int:
        return int(np.argmin((v[b] - (v[b, at] - g[b])) ** 2))

    for b in range(len(k)):
        pairs = [(w, r) for w in range(n) for r in range(n)
                 if w != r and (r < w) == first and nearest(b, w) != nearest(b, r)]
        if not pairs:
            k[b] = np.nan  # every runner-up leads to the same entry: this base is refused
            continue
        w, r = pairs[int(rng.integers(len(pairs)))]
        rest = [i for i in range(n) if i not in (w, r)]
        low = rng.uniform(0.0, 0.3) * rng.dirichlet(np.ones(len(rest))) if rest else np.zeros(0)
        k[b, rest] = low
        share = 1.0 - float(np.sum(low))
        k[b, w], k[b, r] = (share + d) / 2, (share - d) / 2
    values[1] = k


# Per guard, the near-ties drawn at each of GUARD_TIES: (what is tied, how).
_GUARD_TIES_MAKE = {
    "unique_max": (("the max's winner and runner-up", _max_tie, GUARD_TIES),),
    "asymmetric": (("the two values nearest the target", _nearest_tie, GUARD_TIES),
                   ("the two largest weights of k", _argmax_tie, GUARD_TIES),
                   ("the two values nearest the target, every value within 1e-7 of it, far from 0", _close_tie,
                    CLOSE_TIES),
                   *((f"the two values nearest the target, every value about {level:g} from it, far from 0, "
                      "r not the nearest", _isclose_tie(level), (ISCLOSE_TIE,)) for level in ISCLOSE_LEVELS)),
}


# Below this many combinations, every structure of one argument meets every one of the other:
# two 3-entry probability vectors (8 structures each) meet in full, one-hot or ulps from it in
# each, so a mask x_i y_j is exactly 1 and every few ulps from it.
PAIRS_IN_FULL = 64


def _pairs(sa: list[Structure], sb: list[Structure]) -> list[tuple[Structure, Structure]]:
    """Which structures of two arguments are combined: all combinations when they are few, else
    a fixed covering in which each structure of each argument takes part at least once. The
    same pairs on every seed, so a mistake a pair exposes is exposed on every seed."""
    if len(sa) * len(sb) <= PAIRS_IN_FULL:
        return list(itertools.product(sa, sb))
    count = max(len(sa), len(sb))
    stride = next(k for k in (7, 5, 3, 1) if math.gcd(k, len(sb)) == 1)
    covering = [(sa[i % len(sa)], sb[(i * stride) % len(sb)]) for i in range(count)]
    # And each structure with its namesake (huge with huge, mixed with mixed): where both
    # arguments span many magnitudes at once, rounding in a product of them is at its worst.
    alike = [(a, b) for a in sa for b in sb if a.label == b.label and (a, b) not in covering]
    return covering + alike


def _both(first: Callable[[list[np.ndarray]], None],
          second: Callable[[list[np.ndarray]], None]) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        first(values)
        second(values)

    return apply


def _coinciding(puzzle: Puzzle, c: _Coincidence, rng: np.random.Generator) -> Callable[[list[np.ndarray]], None]:
    def apply(values: list[np.ndarray]) -> None:
        _point_at(puzzle, values, c)
        values[c.target] = c.sign * np.array(values[c.source][c.lead], dtype=np.float64)

    return apply


def _coincidence_label(puzzle: Puzzle, c: _Coincidence, rng: np.random.Generator) -> str:
    source, target = puzzle.args[c.source], puzzle.args[c.target]
    where = f"[{', '.join(map(str, c.lead))}]" if c.lead else ""
    pointers = _point_at(puzzle, [_random(a, rng) for a in puzzle.args], c)
    minus = "" if c.sign > 0 else "-"
    return f"{target.name} equal to {minus}{source.name}{where}" + (f", {pointers}" if pointers else "")


# What the zero search (`_zeros`) draws its random segments with: the sampler's own functions,
# handed over so that the search does not import the sampler that consults it.
SAMPLER = _zeros.Sampler(dtype=_dtype, random=_random, valid=_valid)
