"""Expected Jacobians: `jax.jacfwd`, cross-checked against `jax.jacrev`, on every draw at once.

Both are computed by one jitted, vmapped function for every puzzle asked for at once: one XLA
compilation instead of one per puzzle (or dozens of eager dispatches per draw), with XLA's
backend optimisations off, since for functions this small compiling costs far more than running
(bench/). Results are cached on disk, keyed by everything they depend on, so checking the same
puzzle again compiles nothing. The cache holds plain `.npz` arrays, loaded without pickle.
"""

from __future__ import annotations

import functools
import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine import _catalog, _numerics
from checker.engine._catalog import Puzzle
from checker.engine._draw import Draw, stacked
from checker.engine._errors import JacpuzzlesError
from checker.engine._tolerance import close, close_per_draw
from checker.engine._verdict import draw_phrase

# One entry per Jacobian block, output-major (see `Puzzle.jac_shapes`).
Blocks = tuple[np.ndarray, ...]



class OracleDisagreement(JacpuzzlesError):
    """Two oracles disagree (jacfwd and jacrev, or JAX and TensorFlow): a bug in the kit (or in
    a framework), never in the learner's answer; the message asks for it to be reported."""

    def __init__(
        self, puzzle: str, draw: str, block: int, worst: float, first: str = "jax.jacfwd", second: str = "jax.jacrev"
    ) -> None:
        super().__init__(
            f"{puzzle}: {first} and {second} disagree on {draw_phrase(draw)} (block {block}, "
            f"largest difference {worst:.3g}). This is a bug in jacpuzzles, not in your answer: "
            "please report it with this message."
        )
        self.puzzle, self.draw, self.block, self.worst = puzzle, draw, block, worst
        self.first, self.second = first, second


def cache_dir() -> Path | None:
    """Where expected Jacobians are cached, or None when caching is off (`JACPUZZLES_CACHE=off`)."""
    setting = os.environ.get("JACPUZZLES_CACHE", "")
    if setting.lower() in ("0", "off", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "jacpuzzles"


def keep_compilations() -> None:
    """Let JAX keep compiled code in the cache folder too (the command line turns this on).

    A later check of an unchanged answer, and of the same puzzles, then compiles nothing; this
    is what makes a repeated check fast (bench/). JAX keys each entry by the compiled program,
    the backend and its own version, so a changed answer is compiled afresh. Library users
    (a notebook) keep their own JAX configuration: this is not called for them.
    """
    where = cache_dir()
    if where is None:
        return
    import jax

    config: Any = jax.config  # untyped upstream
    config.update("jax_compilation_cache_dir", str(where / "xla"))
    config.update("jax_persistent_cache_min_compile_time_secs", 0)
    config.update("jax_persistent_cache_min_entry_size_bytes", 0)


def _chapter_digest(chapter: str) -> bytes:
    # The whole chapter file: an edited f, domain or shape gives other expected Jacobians.
    return _digest_of(_catalog.catalog_bytes(chapter))


@functools.lru_cache(maxsize=64)
def _digest_of(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _key(puzzle: Puzzle, batch: tuple[Draw, ...]) -> str:
    digest = hashlib.sha256()
    digest.update(_chapter_digest(puzzle.chapter))
    digest.update(f"{puzzle.name}|{_numerics.settings_digest()}".encode())
    if puzzle.variant:  # a variant's own f and shapes (the canonical puzzle's keys are unchanged)
        shapes = [(a.name, a.shape, a.dtype, a.static) for a in puzzle.args]
        digest.update(f"|{puzzle.variant!r}|{puzzle.code}|{puzzle.backward}|{puzzle.outs!r}|{shapes!r}".encode())
    for draw in batch:
        for value in draw.values:
            digest.update(value.dtype.str.encode())
            digest.update(value.tobytes())
    return digest.hexdigest()[:32]


def expected(puzzle: Puzzle, batch: tuple[Draw, ...]) -> list[Blocks]:
    """The expected Jacobian blocks for each draw, in draw order (see `expected_many`)."""
    return expected_many([(puzzle, batch)])[puzzle.name]


def expected_many(work: list[tuple[Puzzle, tuple[Draw, ...]]]) -> dict[str, list[Blocks]]:
    """Expected Jacobian blocks per puzzle name, each a list in draw order.

    Puzzles missing from the cache are computed together in one compilation. Raises
    `OracleDisagreement` when forward and reverse mode disagree on any draw.
    """
    where = cache_dir()
    found: dict[str, list[Blocks]] = {}
    todo: list[tuple[Puzzle, tuple[Draw, ...], Path | None]] = []
    for puzzle, batch in work:
        path = where / f"{puzzle.name}-{_key(puzzle, batch)}.npz" if where else None
        cached = _load(path, len(batch)) if path is not None else None
        if cached is not None:
            found[puzzle.name] = cached
        else:
            todo.append((puzzle, batch, path))
    if todo:
        with _numerics.pinned():
            results = _compute_in_parts([(p, b) for p, b, _ in todo])
        for (puzzle, batch, path), (fwd, rev) in zip(todo, results):
            fwd = _cross_checked(puzzle, batch, fwd, rev)
            if path is not None:
                _store(path, fwd)
            found[puzzle.name] = _per_draw(fwd, len(batch))
    return found


def _load(path: Path, n: int) -> list[Blocks] | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            leaves = [saved[f"b{k}"] for k in range(len(saved.files))]
        return _per_draw(leaves, n)
    except (OSError, ValueError, KeyError, IndexError):
        return None  # a damaged cache file is recomputed and overwritten


# Forward and reverse mode, both in float64, may differ by rounding alone where the Jacobian is
# a cancellation of terms of order 1 (softmax saturated by large inputs: s(1 - s) with s = 1):
# nothing a learner's answer could be judged wrong by, and no sign of a bug in an oracle.
ROUNDING_FLOOR = 1e-12


def _cross_checked(
    puzzle: Puzzle, batch: tuple[Draw, ...], fwd: list[np.ndarray], rev: list[np.ndarray]
) -> list[np.ndarray]:
    """`fwd`, once every draw of it agrees with `rev`.

    Where the compiled programs disagree, that draw is computed again op by op, as a notebook
    runs it: XLA may compute an operation differently inside each program's fusions (a tanh one
    ulp short of -1 at an input of -8000, which GELU's slope multiplies by 1e12, red team RT33),
    and one operation at a time it computes each as it would alone. The op-by-op forward mode
    replaces the draw when it agrees with the op-by-op reverse mode; `OracleDisagreement` is
    raised where even those disagree."""
    apart = sorted({int(d) for a, b in zip(fwd, rev) for d in np.flatnonzero(~close_per_draw(a, b))
                    if _disagree(a[d], b[d])})
    if not apart:
        return fwd
    fwd = [np.array(leaf) for leaf in fwd]
    for d in apart:
        alone_fwd, alone_rev = _op_by_op(puzzle, batch[d])
        for k, (a, b) in enumerate(zip(alone_fwd, alone_rev)):
            if _disagree(a, b):
                names = ("jax.vjp", "jax.jacrev contracted with g") if puzzle.is_vjp else ("jax.jacfwd", "jax.jacrev")
                raise OracleDisagreement(puzzle.name, batch[d].label, k, float(np.max(np.abs(a - b))), *names)
        for leaf, value in zip(fwd, alone_fwd):
            leaf[d] = value
    return fwd


def _disagree(a: np.ndarray, b: np.ndarray) -> bool:
    apart = np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))
    return not close(a, b).all() and not np.max(apart, initial=0.0) <= ROUNDING_FLOOR


def _op_by_op(puzzle: Puzzle, draw: Draw) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The (expected, cross-check) leaves of one draw, computed one operation at a time."""
    import jax

    with _numerics.pinned():
        fwd, rev = _oracle(puzzle)(*puzzle.dynamic(draw.values))
    return ([np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(fwd)],
            [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(rev)])


def _per_draw(leaves: list[np.ndarray], n: int) -> list[Blocks]:
    return [tuple(np.asarray(leaf[d]) for leaf in leaves) for d in range(n)]


def _store(path: Path, leaves: list[np.ndarray]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        arrays: dict[str, Any] = {f"b{k}": leaf for k, leaf in enumerate(leaves)}
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs speed


# XLA compiles one program on one core. Many puzzles at once (the whole catalog, a class's
# variants) are split into this many programs, compiled side by side: XLA's compiler and the
# compiled code run without Python's lock. One puzzle, a learner's usual check, stays one.
PARTS = max(1, min(2, os.cpu_count() or 1))
PART_FROM = 8  # puzzles at least, for a split to pay for the second program's fixed cost


def _compute_in_parts(work: list[tuple[Puzzle, tuple[Draw, ...]]]) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    """`_compute` of `work`, in PARTS programs of about as many draws each, compiled at once."""
    if PARTS < 2 or len(work) < PART_FROM:
        return _compute(work)
    parts: list[list[int]] = [[] for _ in range(PARTS)]
    weights = [0] * PARTS
    for i in sorted(range(len(work)), key=lambda i: (-len(work[i][1]), i)):  # largest first, to the lightest part
        k = weights.index(min(weights))
        parts[k].append(i)
        weights[k] += len(work[i][1])
    with ThreadPoolExecutor(PARTS, thread_name_prefix="oracles") as pool:
        done = list(pool.map(lambda part: _compute([work[i] for i in part]), parts))
    found: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for part, results in zip(parts, done):
        found.update(zip(part, results))
    return [found[i] for i in range(len(work))]


def _compute(work: list[tuple[Puzzle, tuple[Draw, ...]]]) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    """(jacfwd leaves, jacrev leaves) for each puzzle, every leaf with the draw index first.

    A backward-pass puzzle gets (`jax.vjp`, the jacrev Jacobian contracted with g) instead; with a
    custom gradient there is no Jacobian to contract (jacfwd cannot go through `jax.custom_vjp`),
    so both are the vjp and only the TensorFlow oracle cross-checks it (`_tf`).
    """
    import jax

    inputs = [p.dynamic(stacked(batch)) for p, batch in work]
    everything = _program(tuple(p for p, _ in work))(inputs)
    return [
        (
            [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(fwd)],
            [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(rev)],
        )
        for fwd, rev in everything
    ]


@functools.lru_cache(maxsize=64)
def _program(puzzles: tuple[Puzzle, ...]) -> Any:
    """One jitted function computing every puzzle's oracles on all its draws. Kept, so that the
    same puzzles on another seed (the same number of draws, so the same shapes) compile nothing."""
    import jax

    oracles = [jax.vmap(_oracle(p)) for p in puzzles]
    options = _numerics.compile_options(answers=False)
    return jax.jit(lambda xs: [o(*x) for o, x in zip(oracles, xs)], compiler_options=options)


def _oracle(puzzle: Puzzle) -> Any:
    """One draw's (expected, cross-check) pair, as a function of the non-static arguments."""
    import jax
    import jax.numpy as jnp

    f, argnums = puzzle.on_dynamic(puzzle.f), puzzle.dynamic_argnums()
    if not puzzle.is_vjp:
        return lambda *args: (jax.jacfwd(f, argnums)(*args), jax.jacrev(f, argnums)(*args))
    nums = (argnums,) if isinstance(argnums, int) else argnums

    def backward(*args: Any) -> Any:
        *xs, g = args

        def of_floats(*floats: Any) -> Any:  # integer arguments stay fixed: they get no cotangent
            full = list(xs)
            for i, value in zip(nums, floats):
                full[i] = value
            return f(*full)

        cotangents = jax.vjp(of_floats, *(xs[i] for i in nums))[1](g)
        if puzzle.backward:
            return cotangents, cotangents
        jacobians = jax.tree_util.tree_leaves(jax.jacrev(of_floats, tuple(range(len(nums))))(*(xs[i] for i in nums)))
        return cotangents, tuple(jnp.tensordot(g, jac, axes=g.ndim) for jac in jacobians)

    return backward
