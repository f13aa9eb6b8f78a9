"""The prover's own dense test set: thousands of float64 draws per puzzle, seeded from its name.

Independent of the checker's sampler (`checker/engine/_sampling.py` is neither imported nor
read): a blind spot of the sampler must not be a blind spot of the proof. Only the puzzle's
domain (`checker/engine/_domain.py`: which draws the puzzle's guard admits) is shared, since a
draw outside it is no proof.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from checker.authoring.mutation._reference import puzzle_named
from checker.engine import _domain, _zeros
from checker.engine._catalog import Arg, Puzzle

NEAR = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3)


@dataclasses.dataclass
class Inputs:
    """A puzzle's dense test set: per non-static argument, one array with the draw index first."""

    puzzle: Puzzle
    values: list[np.ndarray]  # per non-static argument
    categories: list[str]

    def __len__(self) -> int:
        return len(self.categories)

    def dynamic_at(self, k: int) -> tuple[Any, ...]:
        return tuple(v[k] for v in self.values)

    def args_at(self, k: int) -> tuple[Any, ...]:
        """Every argument of draw k as the answer receives it (jax arrays; static ones as ints)."""
        import jax.numpy as jnp

        dynamic = iter(self.dynamic_at(k))
        return tuple(a.static if a.static is not None else jnp.asarray(next(dynamic)) for a in self.puzzle.args)

    def full_args_at(self, k: int) -> tuple[Any, ...]:
        dynamic = iter(self.dynamic_at(k))
        return tuple(a.static if a.static is not None else np.asarray(next(dynamic)) for a in self.puzzle.args)


def _dtype(arg: Arg) -> Any:
    return np.int32 if arg.dtype.startswith("int") else np.float64


class _Draws:
    """Draw generators for one puzzle, seeded from its name."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.rng = np.random.default_rng(zlib.crc32(puzzle.name.encode()))
        self.dynamic = [a for a in puzzle.args if a.static is None]

    # -- one argument, m draws ---------------------------------------------------------------

    def random(self, arg: Arg, m: int) -> np.ndarray:
        rng, shape = self.rng, (m, *arg.shape)
        if arg.dtype.startswith("int"):
            return rng.integers(int(arg.low), int(arg.high) + 1, size=shape).astype(np.int32)
        if arg.sampler == "simplex":
            alpha = rng.choice([0.2, 1.0, 5.0], size=(m,) + (1,) * len(arg.shape))
            raw = rng.gamma(np.broadcast_to(alpha, shape), 1.0) + 1e-300
            return np.asarray(raw / raw.sum(axis=-1, keepdims=True))
        return rng.uniform(arg.low, arg.high, size=shape)

    def _grid_points(self, arg: Arg) -> np.ndarray:
        lo, hi = math.ceil(arg.low * 2), math.floor(arg.high * 2)
        return np.arange(lo, hi + 1) / 2.0

    def specials(self, arg: Arg) -> dict[str, np.ndarray]:
        """Named batches of special values for one argument."""
        rng = self.rng
        out: dict[str, np.ndarray] = {}
        shape = tuple(arg.shape)
        size = int(np.prod(shape, dtype=int))
        if arg.dtype.startswith("int"):
            lo, hi = int(arg.low), int(arg.high)
            values = np.arange(lo, hi + 1)
            reps = max(1, 400 // len(values))
            # every value, everywhere at once ("repeated"), and at one random position
            out["int every value"] = (np.repeat(values, reps)[:, None].repeat(max(size, 1), axis=1)
                                      .reshape((-1, *shape)).astype(np.int32))
            if size > 1:
                base = self.random(arg, len(values) * reps)
                flat = base.reshape(len(base), -1)
                flat[np.arange(len(flat)), rng.integers(0, size, len(flat))] = np.repeat(values, reps)
                out["int each value somewhere"] = base
                few = rng.choice(values, size=(300, 3))
                out["int few distinct"] = (few[np.arange(300)[:, None], rng.integers(0, 3, (300, size))]
                                           .reshape((300, *shape)).astype(np.int32))
            return out
        if arg.sampler == "simplex":
            n = shape[-1]
            lead = shape[:-1]

            def rows(make: Callable[[], np.ndarray], m: int) -> np.ndarray:
                return np.stack([np.stack([make() for _ in range(int(np.prod(lead, dtype=int)))]).reshape((*lead, n))
                                 for _ in range(m)])

            def one_hot() -> np.ndarray:
                v = np.zeros(n)
                v[rng.integers(n)] = 1.0
                return v

            def near_one_hot() -> np.ndarray:
                eps = rng.choice(NEAR) * rng.uniform(0.5, 2)
                v = np.zeros(n)
                k = rng.integers(n)
                if rng.random() < 0.5:
                    v[(k + rng.integers(1, n)) % n] = eps
                else:
                    v[:] = eps / (n - 1)
                v[k] = 1.0 - eps
                return v

            def tie() -> np.ndarray:
                choice = rng.integers(3)
                if choice == 0:
                    return np.full(n, 1.0 / n)
                v = np.zeros(n)
                picks = rng.choice(n, size=2, replace=False)
                if choice == 1:
                    v[picks] = 0.5
                else:
                    v[:] = rng.uniform(0, 1, n)
                    v[picks[1]] = v[picks[0]]
                    v /= v.sum()
                return v

            def near_tie() -> np.ndarray:
                v = tie()
                picks = rng.choice(n, size=2, replace=False)
                d = rng.choice(NEAR) * rng.uniform(0.5, 2) * min(1.0, v[picks].min() * 10 + 1e-3)
                v[picks[0]] += d
                v[picks[1]] = max(v[picks[1]] - d, 0.0)
                return np.asarray(v / v.sum())

            out["one-hot"] = rows(one_hot, 200)
            out["near one-hot"] = rows(near_one_hot, 300)
            out["simplex tie"] = rows(tie, 200)
            out["simplex near tie"] = rows(near_tie, 200)
            return out
        # a uniform floating argument (or a cotangent)
        grid = self._grid_points(arg)
        if len(grid):
            base = rng.choice(grid, size=(400, *shape))
            offsets = rng.choice(NEAR, size=base.shape) * rng.choice([-1.0, 1.0], size=base.shape)
            offsets *= rng.random(base.shape) < 0.7
            out["integers and halves, nearby"] = np.clip(base + offsets, arg.low, arg.high)
            exact = rng.choice(grid, size=(100, *shape))
            out["integers and halves"] = exact
        edges = set(arg.edge_names) | ({"zero entry", "large magnitudes", "small magnitudes"} if arg.cotangent
                                       else set())
        m = 400
        if {"large magnitudes", "small magnitudes", "zero entry"} & edges:
            # Up to 1e4, the largest magnitude the checker's accuracy contract covers
            # (docs/checker.md): beyond it, central differences of a function linear in each
            # argument, exact in maths, are off by rounding alone, like cos(x + pi/2) near 0.
            top = 4.0 if "large magnitudes" in edges else math.log10(max(abs(arg.low), abs(arg.high)))
            mags = 10.0 ** rng.uniform(-8.0, top, size=(m, *shape))
            signs = rng.choice([-1.0, 1.0], size=mags.shape) if arg.low < 0 else 1.0
            values = mags * signs
            if "zero entry" in edges and "zero" not in arg.avoid:
                values = np.where(rng.random(values.shape) < 0.3, 0.0, values)
            if "large magnitudes" not in edges:
                values = np.clip(values, arg.low, arg.high)
            out["zeros and magnitudes"] = values
        if arg.low < 0 < arg.high and "zero" not in arg.avoid:
            zeros = self.random(arg, 200)
            flat = zeros.reshape(200, -1)
            for row in flat:
                row[rng.choice(flat.shape[1], size=rng.integers(1, flat.shape[1] + 1), replace=False)] = 0.0
            out["zero entries"] = zeros
        if size > 1:
            near = self.random(arg, 200)
            flat = near.reshape(200, -1)
            for row in flat:
                i, j = rng.choice(flat.shape[1], size=2, replace=False)
                row[j] = row[i] + rng.choice(NEAR) * rng.choice([-1.0, 1.0])
            out["near ties"] = np.clip(near, arg.low, arg.high)
            if "ties" not in arg.avoid:
                tied = self.random(arg, 200)
                flat = tied.reshape(200, -1)
                for row in flat:
                    pool = rng.uniform(arg.low, arg.high, size=rng.integers(1, 3))
                    if "zero entry" in edges and rng.random() < 0.3:
                        pool[0] = 0.0
                    row[:] = rng.choice(pool, size=flat.shape[1])
                out["ties"] = tied
        return out

    # -- the whole test set -----------------------------------------------------------------

    def build(self) -> Inputs:
        rng = self.rng
        batches: list[tuple[str, list[np.ndarray]]] = []

        def with_random(fixed: dict[int, np.ndarray], category: str) -> None:
            m = len(next(iter(fixed.values())))
            values = [fixed[k] if k in fixed else self.random(a, m) for k, a in enumerate(self.dynamic)]
            batches.append((category, values))

        with_random({0: self.random(self.dynamic[0], 1200)}, "uniform")
        per_arg = [self.specials(a) for a in self.dynamic]
        for k, (arg, specials) in enumerate(zip(self.dynamic, per_arg)):
            for name, values in specials.items():
                with_random({k: values}, f"{arg.name}: {name}")
        # every argument special at once
        if len(self.dynamic) > 1:
            m = 500
            columns: list[np.ndarray] = []
            for arg, specials in zip(self.dynamic, per_arg):
                pool = list(specials.values()) + [self.random(arg, m)]
                pick = rng.integers(len(pool), size=m)
                rows = [pool[p][rng.integers(len(pool[p]))] for p in pick]
                columns.append(np.stack(rows).astype(_dtype(arg)))
            batches.append(("all special", columns))
        # arguments equal to one another, or to slices / entries of one another
        floats = [k for k, a in enumerate(self.dynamic) if not a.dtype.startswith("int")]
        for i, j in itertools.permutations(floats, 2):
            a, b = self.dynamic[i], self.dynamic[j]
            if (a.sampler == "simplex") != (b.sampler == "simplex"):
                continue
            if a.sampler == "simplex":
                if a.shape == b.shape:
                    src = self.random(a, 200)
                    with_random({i: src, j: src.copy()}, f"{b.name} = {a.name}")
                continue
            src = self.random(a, 300)
            flat = src.reshape(300, -1)
            size_b = int(np.prod(b.shape, dtype=int))
            if a.shape == b.shape:
                copy_b = src.copy()
            else:
                # a slice of a (consecutive entries) or entries picked from a
                copy_b = np.empty((300, size_b))
                for r in range(300):
                    if rng.random() < 0.5 and flat.shape[1] >= size_b:
                        s = rng.integers(0, flat.shape[1] - size_b + 1)
                        copy_b[r] = flat[r, s : s + size_b]
                    else:
                        copy_b[r] = flat[r, rng.integers(0, flat.shape[1], size_b)]
                copy_b = copy_b.reshape((300, *b.shape))
            if b.low <= min(a.low, a.high) and max(a.low, a.high) <= b.high or (a.low, a.high) == (b.low, b.high):
                with_random({i: src, j: copy_b}, f"{b.name} from {a.name}")
        # interleave the categories, so that every prefix (a chunk, the eager subset) mixes them
        order: list[tuple[int, int]] = []
        sizes = [len(v[0]) for _, v in batches]
        for r in range(max(sizes)):
            order.extend((b, r) for b, n in enumerate(sizes) if r < n)
        stacked = [np.stack([batches[b][1][k][r] for b, r in order]).astype(_dtype(a))
                   for k, a in enumerate(self.dynamic)]
        categories = [batches[b][0] for b, _ in order]
        keep = self._admissible(stacked)
        return Inputs(self.puzzle, [v[keep] for v in stacked], [c for c, ok in zip(categories, keep) if ok])

    def _admissible(self, values: list[np.ndarray]) -> np.ndarray:
        """Draws where f is differentiable: no avoided zeros or ties, and the puzzle's guard holds."""
        n = len(values[0])
        keep = np.ones(n, dtype=bool)
        for arg, v in zip(self.dynamic, values):
            flat = v.reshape(n, -1)
            if "zero" in arg.avoid:
                keep &= ~(flat == 0).any(axis=1)
            if "ties" in arg.avoid and flat.shape[1] > 1:
                s = np.sort(flat, axis=1)
                keep &= ~(np.diff(s, axis=1) == 0).any(axis=1)
            keep &= np.isfinite(flat).all(axis=1) if flat.dtype.kind == "f" else True
        guard = self.puzzle.guard
        if guard is not None:
            dynamic = iter(values)
            full = [np.full(n, a.static) if a.static is not None else next(dynamic) for a in self.puzzle.args]
            keep &= _domain.admits(guard, full)
        return keep


@functools.cache
def _inputs_cached(name: str) -> Inputs:
    return _Draws(puzzle_named(name)).build()


def inputs(puzzle: Puzzle | str) -> Inputs:
    """The puzzle's dense test set (built once per process)."""
    return _inputs_cached(puzzle_named(puzzle).name)



# ---------------------------------------------------------------------------------------------
# witness candidates: where a mistake right to ~1e-9 shows


TIE_GAPS = (1e-10, 1e-12, 1e-14)  # relative: closer than a learner's 1e-9 tie tolerance, or float32's
PER_TIE = 16  # draws per argument, gap and order
PER_MAGNITUDE = 48  # draws per argument and declared magnitude, and of minute values


def _zero_sampler(draws: _Draws) -> _zeros.Sampler:
    """The zero search's sampler, made of the prover's own draws (only used for a puzzle the
    shipped table lacks: a pack's)."""

    def random(arg: Arg, rng: np.random.Generator) -> np.ndarray:
        if arg.static is not None:
            return np.asarray(arg.static)
        one: np.ndarray = draws.random(arg, 1)[0]
        return one

    def valid(puzzle: Puzzle, values: tuple[np.ndarray, ...], structured: bool = False) -> bool:
        dynamic = [np.asarray(v)[None] for a, v in zip(puzzle.args, values) if a.static is None]
        return bool(draws._admissible(dynamic)[0])

    return _zeros.Sampler(dtype=lambda a: "int32" if a.dtype.startswith("int") else "float64", random=random,
                          valid=valid)


def _witness_inputs(puzzle: Puzzle) -> Inputs:
    """Draws where a mistake that is right to about 1e-9 is wrong inside the accuracy contract:
    the zeros of the expected Jacobian (the kit's table, `_zeros`), near-ties closer than 1e-9
    between entries that compete for an output, and magnitudes (minute ones down to 1e-300, and
    each argument's declared scales)."""
    draws = _Draws(puzzle)
    rng = np.random.default_rng([zlib.crc32(puzzle.name.encode()), 22])
    dynamic = draws.dynamic
    columns: list[list[np.ndarray]] = [[] for _ in dynamic]
    categories: list[str] = []

    def add(values: list[np.ndarray], category: str) -> None:
        for column, v in zip(columns, values):
            column.extend(v)
        categories.extend([category] * len(values[0]))

    found = _zeros.found(puzzle, _zero_sampler(draws))
    for label, values in found.zeros:
        add([np.asarray(v)[None] for a, v in zip(puzzle.args, values) if a.static is None], label)
    competing = dict(found.groups)
    for k, arg in enumerate(dynamic):
        if arg.dtype.startswith("int") or arg.cotangent:
            continue
        size = int(np.prod(arg.shape, dtype=int))
        at = next(j for j, a in enumerate(puzzle.args) if a is arg)
        for gap in TIE_GAPS:
            for sign in (1.0, -1.0):
                if size < 2:
                    continue
                base = [draws.random(a, PER_TIE) for a in dynamic]
                flat = base[k].reshape(PER_TIE, -1)
                for row in flat:
                    group = competing.get(at)
                    members = group[rng.integers(len(group))] if group else tuple(range(size))
                    i, j = rng.choice(members, size=2, replace=False)
                    row[j] = row[i] + sign * gap * max(1.0, abs(row[i]))
                if arg.sampler == "simplex":
                    base[k] = base[k] / base[k].sum(axis=-1, keepdims=True)
                base[k] = np.clip(base[k], arg.low, arg.high) if arg.sampler != "simplex" else base[k]
                add(base, f"{arg.name}: a near-tie {gap:g} apart")
        if arg.sampler == "simplex":
            continue
        scales = ([10.0 ** rng.uniform(-300.0, -8.0, size=(PER_MAGNITUDE, *arg.shape))]
                  if arg.low < 0 < arg.high or arg.low == 0 else [])
        scales += [m * draws.random(arg, PER_MAGNITUDE) for m in arg.magnitudes]
        for scaled in scales:
            base = [draws.random(a, PER_MAGNITUDE) for a in dynamic]
            signs = rng.choice([-1.0, 1.0], size=scaled.shape) if arg.low < 0 else 1.0
            base[k] = scaled * signs if scaled.min() >= 0 else scaled
            add(base, f"{arg.name}: magnitudes")
    if not categories:
        return Inputs(puzzle, [np.zeros((0, *a.shape), _dtype(a)) for a in dynamic], [])
    stacked = [np.stack(c).astype(_dtype(a)) for c, a in zip(columns, dynamic)]
    keep = draws._admissible(stacked)
    return Inputs(puzzle, [v[keep] for v in stacked], [c for c, ok in zip(categories, keep) if ok])


@functools.cache
def _witnesses_cached(name: str) -> Inputs:
    return _witness_inputs(puzzle_named(name))


def witness_inputs(puzzle: Puzzle | str) -> Inputs:
    """The puzzle's witness candidates (built once per process)."""
    return _witnesses_cached(puzzle_named(puzzle).name)
