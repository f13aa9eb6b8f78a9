"""The prover: an input where an answer file is wrong, found on draws of its own, or None.

Two sets of float64 draws (`_draws`), both built without the checker's sampler:

* the dense test set, thousands of draws: a draw proves an answer wrong when an entry is off by
  more than `TOLERANCE * (1 + |truth|)` *and* the draw fails the checker's accuracy contract
  (`checker/engine/_tolerance.py`): clearly wrong, and never a rounding artefact the contract
  allows;
* the witness candidates, a few hundred draws where a mistake right to about 1e-9 shows (the
  zeros of the expected Jacobian from the kit's table, near-ties closer than 1e-9, minute and
  declared magnitudes): there the contract alone decides, against `jax.jacfwd` in float64, as
  the checker decides.

The truth is `jax.jacrev` of the catalog's `f` on the dense set and `jax.jacfwd` on the
witnesses (`jax.vjp` for a backward-pass puzzle). Everything numeric runs under
`with jax.enable_x64(True):`; JAX's global configuration is never changed.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from checker.authoring.mutation._draws import Inputs, inputs, witness_inputs
from checker.authoring.mutation._reference import puzzle_named
from checker.engine import _tolerance
from checker.engine._catalog import Puzzle

TOLERANCE = 1e-6  # dense draws: |answer - truth| > TOLERANCE * (1 + |truth|) somewhere, and the contract fails
EAGER_SUBSET = 400  # dense inputs tried one by one when the answer does not run under jit(vmap)
EAGER_WITNESSES = 200  # witness candidates tried one by one likewise
CHUNK_ELEMENTS = 4_000_000  # Jacobian entries per vmapped chunk
GROUP_ELEMENTS = 12_000_000  # Jacobian entries per chunk of a group of answers compiled together
GROUP_SIZE = 8  # answers per group: XLA's compile time grows faster than linearly beyond
FAST_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


@dataclasses.dataclass(frozen=True)
class Witness:
    """An input where an answer is wrong."""

    category: str  # which kind of draw found it
    args: tuple[Any, ...]  # every argument, static ones as ints
    reason: str

    def __str__(self) -> str:
        with np.printoptions(precision=17, threshold=40, linewidth=200):
            shown = ", ".join(f"{a!r}" if isinstance(a, int)
                              else np.array2string(np.asarray(a), separator=", ") for a in self.args)
        return f"{self.reason} on a {self.category} draw: args = ({shown})"


def _truth_fn(puzzle: Puzzle, forward: bool) -> Callable[..., list[Any]]:
    """The expected blocks (flat list) of one draw, as a function of the non-static arguments."""
    import jax

    f = puzzle.on_dynamic(puzzle.f)
    if not puzzle.is_vjp:
        jf = (jax.jacfwd if forward else jax.jacrev)(f, puzzle.dynamic_argnums())
        return lambda *args: jax.tree_util.tree_leaves(jf(*args))
    dyn_f = [a for a in puzzle.f_args if a.static is None]
    wrt = [k for k, a in enumerate(dyn_f) if a.differentiable]

    def cotangents(*args: Any) -> list[Any]:
        *xs, g = args

        def of_floats(*floats: Any) -> Any:
            full = list(xs)
            for k, value in zip(wrt, floats):
                full[k] = value
            return f(*full)

        return list(jax.vjp(of_floats, *(xs[k] for k in wrt))[1](g))

    return cotangents


class _Set:
    """One set of draws, its chunks, and the truth on them (computed once, float64)."""

    def __init__(self, puzzle: Puzzle, data: Inputs, chunk: int, witnesses: bool) -> None:
        import jax

        self.data = data
        self.chunk = chunk
        self.witnesses = witnesses  # judged by the contract alone
        n = len(data)
        self.starts = list(range(0, n, chunk))
        self.truth_jit = jax.jit(jax.vmap(_truth_fn(puzzle, forward=witnesses)), compiler_options=FAST_COMPILE)
        self._truth: dict[int, list[np.ndarray]] = {}
        self.valid = np.ones(n, dtype=bool)
        for s in self.starts:
            blocks = self.truth(s)
            ok = np.ones(len(blocks[0]), dtype=bool)
            for b in blocks:
                ok &= np.isfinite(b.reshape(len(b), -1)).all(axis=1)
            self.valid[s : s + chunk] = ok[: min(chunk, n - s)]

    def chunk_values(self, start: int) -> list[np.ndarray]:
        """Chunk `start` of every non-static argument, padded with its first draw to full size."""
        out = []
        for v in self.data.values:
            part = v[start : start + self.chunk]
            if len(part) < self.chunk:
                part = np.concatenate([part, np.repeat(part[:1], self.chunk - len(part), axis=0)])
            out.append(part)
        return out

    def truth(self, start: int) -> list[np.ndarray]:
        """The expected blocks on chunk `start` (float64 values; kept compact in memory)."""
        if start not in self._truth:
            self._truth[start] = [_compact(np.asarray(b, dtype=np.float64))
                                  for b in self.truth_jit(*self.chunk_values(start))]
        return [b.astype(np.float64) for b in self._truth[start]]


class _Prover:
    """Per puzzle: the dense set and the witness candidates, chunked alike (one compilation)."""

    def __init__(self, puzzle: Puzzle) -> None:
        import jax

        self.puzzle = puzzle
        self.shapes = [tuple(s) for s in puzzle.jac_shapes()]
        self.per_draw = per_draw = max(1, sum(int(np.prod(s, dtype=int)) for s in self.shapes))
        self.chunk = int(min(512, max(16, CHUNK_ELEMENTS // per_draw)))
        with jax.enable_x64(True):
            self.sets = [_Set(puzzle, inputs(puzzle), self.chunk, witnesses=False)]
            extra = witness_inputs(puzzle)
            if len(extra):
                self.sets.append(_Set(puzzle, extra, self.chunk, witnesses=True))

    @property
    def dense(self) -> _Set:
        return self.sets[0]


def _compact(block: np.ndarray) -> np.ndarray:
    """The block in the smallest dtype that holds its values exactly (int8 for a 0/1 Jacobian)."""
    for dtype in (np.int8, np.float32):
        with np.errstate(invalid="ignore", over="ignore"):
            small = block.astype(dtype)
        if np.array_equal(small.astype(np.float64), block):
            return small
    return block


@functools.cache
def _prover(name: str) -> _Prover:
    return _Prover(puzzle_named(name))


def _load_answer(puzzle: Puzzle, path: Path) -> Callable[..., Any]:
    spec = importlib.util.spec_from_file_location(f"_mutation_answer_{abs(hash(str(path)))}_{id(path)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, puzzle.answer_name)
    return fn  # type: ignore[no-any-return]


def _compare(blocks: list[Any], truth: list[np.ndarray], batched: bool, witnesses: bool) -> tuple[int, str] | None:
    """(draw within the chunk, reason) of the first wrong draw, or None. `blocks` from the answer."""
    if len(blocks) != len(truth):
        return 0, f"returns {len(blocks)} blocks, expected {len(truth)}"
    if not batched:
        blocks, truth = [np.asarray(b)[None] for b in blocks], [t[None] for t in truth]
    n = len(truth[0]) if truth else 0
    wrong = np.zeros(n, dtype=bool)
    per_block = []
    for k, (got, want) in enumerate(zip(blocks, truth)):
        got = np.asarray(got)
        if got.shape != want.shape:
            return 0, f"block {k} has shape {got.shape[1:]}, expected {want.shape[1:]}"
        if got.dtype.kind not in "biuf":
            return 0, f"block {k} holds {got.dtype} values"
        # Outside the checker's contract (its own code, by got's dtype): the draw is wrong there.
        outside = ~_tolerance.close_per_draw(got, want)
        wide = got.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            if witnesses:  # the contract alone; the entries shown are those outside its bound
                rtol, atol = _tolerance.tolerance(got.dtype)
                scale = np.max(np.abs(np.where(np.isfinite(want), want, 0.0)).reshape(n, -1), axis=1, initial=0.0)
                scale = np.where(scale == 0, 1.0, scale).reshape((n,) + (1,) * (want.ndim - 1))
                bad = ~(np.abs(wide - want) <= atol * scale + rtol * np.abs(want))
            else:
                bad = ~(np.abs(wide - want) <= TOLERANCE * (1.0 + np.abs(want)))
        bad &= outside.reshape((n,) + (1,) * (want.ndim - 1))
        wrong |= bad.reshape(n, -1).any(axis=1)
        per_block.append((got, wide, want, bad))
    if not wrong.any():
        return None
    d = int(np.flatnonzero(wrong)[0])
    for k, (_, wide, want, bad) in enumerate(per_block):
        if bad[d].any():
            entry = tuple(int(i) for i in np.argwhere(bad[d])[0])
            return d, f"block {k} entry {entry}: {wide[d][entry]!r}, expected {want[d][entry]!r}"
    return d, "outside the accuracy contract"


def prove_wrong(puzzle: Puzzle | str, path: str | Path) -> Witness | None:
    """An input where the answer in `path` is wrong for `puzzle`, or None if it is right on every
    draw of the dense test set and the witness candidates (or of their eager subsets, for an
    answer jit(vmap) cannot run)."""
    return prove_many(puzzle, [path])[0]


def prove_many(puzzle: Puzzle | str, paths: Sequence[str | Path], group_size: int = GROUP_SIZE) -> list[Witness | None]:
    """`prove_wrong` for several answer files of one puzzle. Those that run under jit(vmap) are
    compiled together, up to `group_size` at a time (one XLA compilation instead of one each:
    compiling, not running, is what a small answer costs; a big one, such as a finite
    difference, is better alone); the others run eagerly, one draw at a time."""
    import jax

    puzzle = puzzle_named(puzzle)
    prover = _prover(puzzle.name)
    results: list[Witness | None] = [None] * len(paths)
    traced: list[tuple[int, Callable[..., Any]]] = []
    eager: list[tuple[int, Callable[..., Any]]] = []
    with jax.enable_x64(True):
        first = prover.dense.chunk_values(0)
        for k, path in enumerate(paths):
            try:
                answer = _load_answer(puzzle, Path(path))
            except Exception as exc:  # noqa: BLE001
                results[k] = Witness("import", (), f"the file does not import: {type(exc).__name__}: {exc}")
                continue
            target = puzzle.on_dynamic(answer)
            try:
                jax.jit(jax.vmap(target)).trace(*first)  # fails on Python control flow over values
            except Exception:  # noqa: BLE001 - run it eagerly instead
                eager.append((k, target))
            else:
                traced.append((k, target))
        size = max(1, min(group_size, GROUP_ELEMENTS // (prover.chunk * prover.per_draw)))
        for g in range(0, len(traced), size):
            group = traced[g : g + size]
            try:
                found = _prove_group(prover, [t for _, t in group])
            except Exception:  # noqa: BLE001 - one member breaks the group: prove them one by one
                found = []
                for _, target in group:
                    try:
                        found.extend(_prove_group(prover, [target]))
                    except Exception as exc:  # noqa: BLE001
                        data = prover.dense.data
                        found.append(Witness(data.categories[0], data.full_args_at(0),
                                             f"raises {type(exc).__name__}: {str(exc)[:200]}"))
            for (k, _), witness in zip(group, found):
                results[k] = witness
        for k, target in eager:
            results[k] = _prove_eager(prover, target)
    return results


def _prove_group(prover: _Prover, targets: list[Callable[..., Any]]) -> list[Witness | None]:
    """Run every target on every chunk of every set (one compiled function for the lot), until
    each is proven wrong or the chunks run out."""
    import jax

    fn = jax.jit(lambda *args: [jax.vmap(t)(*args) for t in targets], compiler_options=FAST_COMPILE)
    results: list[Witness | None] = [None] * len(targets)
    pending = set(range(len(targets)))
    for draws in prover.sets:
        data = draws.data
        for start in draws.starts:
            n = min(draws.chunk, len(data) - start)
            valid = draws.valid[start : start + n]
            if not valid.any():
                continue
            outs = fn(*draws.chunk_values(start))
            truth = draws.truth(start)
            rows = np.flatnonzero(valid)
            for i in sorted(pending):
                blocks = [np.asarray(b)[:n][valid] for b in jax.tree_util.tree_leaves(outs[i])]
                wrong = _compare(blocks, [t[:n][valid] for t in truth], batched=True, witnesses=draws.witnesses)
                if wrong is not None:
                    d = start + int(rows[wrong[0]])
                    results[i] = Witness(data.categories[d], data.full_args_at(d), wrong[1])
                    pending.discard(i)
            if not pending:
                return results
    return results


def _prove_eager(prover: _Prover, target: Callable[..., Any]) -> Witness | None:
    """Call the answer on one draw at a time: the first EAGER_SUBSET valid dense draws (the
    categories interleave, so these cover every kind of draw), then EAGER_WITNESSES witnesses."""
    import jax
    import jax.numpy as jnp

    for draws, limit in zip(prover.sets, (EAGER_SUBSET, EAGER_WITNESSES)):
        data = draws.data
        tried = 0
        for start in draws.starts:
            truth = draws.truth(start)
            for r in range(min(draws.chunk, len(data) - start)):
                d = start + r
                if not draws.valid[d]:
                    continue
                tried += 1
                if tried > limit:
                    break
                args = [jnp.asarray(v) for v in data.dynamic_at(d)]
                try:
                    blocks = jax.tree_util.tree_leaves(target(*args))
                except Exception as exc:  # noqa: BLE001
                    return Witness(data.categories[d], data.full_args_at(d),
                                   f"raises {type(exc).__name__}: {str(exc)[:200]}")
                wrong = _compare(blocks, [t[r] for t in truth], batched=False, witnesses=draws.witnesses)
                if wrong is not None:
                    return Witness(data.categories[d], data.full_args_at(d), wrong[1])
            if tried > limit:
                break
    return None
