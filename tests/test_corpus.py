"""The wrong-answer corpus: classic mistakes, each with the verdict the checker must give.

Every file under tests/corpus/ starts with `# expect: <status> [<kind> ...]`: the status the
checker must return, and diagnosis kinds that must all appear among `verdict.kinds()`.
Files under corpus/<chapter>/<puzzle>/ answer <puzzle> of that chapter; files under
corpus/special/ name their puzzle on a second line, `# puzzle: <name>`. An answer defines the
function its puzzle asks for: `jac`, or `vjp` for a backward-pass puzzle.

A `fail` entry is also checked to be really wrong, and a `pass` entry really right, against JAX
directly (`jax.jacfwd`, or `jax.vjp` for a backward pass) on draws of this file's own, made
independently of the checker's sampler: a checker that passes a wrong entry gives a false pass,
and an entry right on every draw here is no mistake at all. A `fail` entry whose mistake shows
only on a sliver of the domain defines `WITNESS`, the arguments of an input where it is wrong,
and is checked there instead.
"""

from __future__ import annotations

import functools
import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from checker import Arg, Kind, Puzzle, Status, chapters, check_file, puzzles
from checker.engine import _domain
from checker.engine._numerics import pinned
from checker.engine._tolerance import tolerance

CORPUS = Path(__file__).resolve().parent / "corpus"
# jac of the hang fixture must be cut off quickly; everything else gets the default timeout.
SHORT_TIMEOUT = 2.0
# The fewest wrong answers (entries that do not pass) each puzzle needs, by chapter.
MIN_MISTAKES = {"autodiff": 2}
DEFAULT_MIN_MISTAKES = 3


@dataclass(frozen=True)
class Entry:
    path: Path
    puzzle: str
    status: Status
    kinds: tuple[Kind, ...]

    @property
    def id(self) -> str:
        return str(self.path.relative_to(CORPUS).with_suffix(""))

    @property
    def chapter(self) -> str | None:
        """The chapter folder the entry sits in (None for corpus/special/)."""
        parts = self.path.relative_to(CORPUS).parts
        return parts[0] if len(parts) == 3 else None


def _header(path: Path, prefix: str, line: int) -> str:
    lines = path.read_text().splitlines()
    assert len(lines) > line and lines[line].startswith(prefix), (
        f"{path.relative_to(CORPUS)}: line {line + 1} must start with {prefix!r}"
    )
    return lines[line][len(prefix):].strip()


def _entry(path: Path) -> Entry:
    status, *kinds = _header(path, "# expect:", 0).split()
    if path.parent.name == "special":
        puzzle = _header(path, "# puzzle:", 1)
    else:
        puzzle = path.parent.name
    return Entry(path, puzzle, Status(status), tuple(Kind(k) for k in kinds))


def _paths() -> list[Path]:
    return sorted(CORPUS.glob("*/*/*.py")) + sorted(CORPUS.glob("special/*.py"))


ENTRIES = [_entry(p) for p in _paths()]
CATALOG = {p.name: p for p in puzzles()}
NAMES = set(CATALOG)


def _param(entry: Entry) -> object:
    return pytest.param(entry, id=entry.id)


# ---------------------------------------------------------------------------------------------
# The corpus itself


def test_corpus_is_not_empty() -> None:
    assert len(ENTRIES) > 2 * len(NAMES)


def test_every_chapter_has_a_corpus() -> None:
    folders = {p.name for p in CORPUS.iterdir() if p.is_dir()} - {"special"}
    registered = {c.name for c in chapters()}
    assert folders == registered


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_puzzle_has_enough_mistakes(name: str) -> None:
    chapter = CATALOG[name].chapter
    wrong = [e for e in ENTRIES if e.chapter == chapter and e.puzzle == name and e.status is not Status.PASS]
    want = MIN_MISTAKES.get(chapter, DEFAULT_MIN_MISTAKES)
    assert len(wrong) >= want, (f"{name} has {len(wrong)} wrong answers in corpus/{chapter}/{name}/, want at least "
                                f"{want}")


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_entry_is_well_formed(entry: Entry) -> None:
    assert entry.puzzle in NAMES, f"{entry.id}: no puzzle named {entry.puzzle!r}"
    if entry.chapter is not None:
        chapter = CATALOG[entry.puzzle].chapter
        assert entry.chapter == chapter, f"{entry.id}: {entry.puzzle} is in chapter {chapter}, not {entry.chapter}"
    if entry.status is Status.PASS:
        assert not entry.kinds, f"{entry.id}: a passing answer has no diagnosis to expect"
    else:
        assert entry.kinds, f"{entry.id}: say which diagnosis kind(s) the checker must give"


# ---------------------------------------------------------------------------------------------
# The checker on the corpus


@pytest.mark.slow
@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_checker_verdict(entry: Entry) -> None:
    hangs = Kind.TIMEOUT in entry.kinds
    started = time.monotonic()
    verdict = check_file(entry.puzzle, entry.path, seed=0, **({"timeout": SHORT_TIMEOUT} if hangs else {}))
    said = f"checker said {verdict.status.value} {[k.value for k in verdict.kinds()]}: {verdict.message}"
    if entry.status is not Status.PASS:
        assert verdict.status is not Status.PASS, f"{entry.id}: false pass; {said}"
    assert verdict.status is entry.status, f"{entry.id}: expected {entry.status.value}; {said}"
    missing = [k.value for k in entry.kinds if k not in verdict.kinds()]
    assert not missing, f"{entry.id}: expected diagnosis {missing}; {said}"
    if hangs:
        assert time.monotonic() - started < 10 * SHORT_TIMEOUT + 30, f"{entry.id}: the timeout did not cut jac off"


# ---------------------------------------------------------------------------------------------
# The corpus against JAX directly, on draws of our own: a `fail` entry must really be wrong,
# a `pass` entry really right.
#
# The draws do not come from the checker's sampler, so a sampler that never reaches the inputs
# where a mistake shows cannot make that mistake look right here too. Each argument is drawn
# from its own domain: floats uniformly (away from the points it avoids), integers in
# [low, high], a static argument as its fixed Python int, a simplex argument as random
# probability vectors, a backward pass's upstream gradient g like a float. Then the edges each
# argument names, exhaustively where a mistake may hide in a single value: every integer and
# every k + 0.5 of an index's domain, a one-hot at every position, one index repeated
# throughout; and one and two exact zeros in the generic floating arguments.

RANDOM_DRAWS = 4  # then the edge draws, then as many random draws again
GAP = 1e-2  # how far a draw stays from a point where f has no derivative


@functools.cache
def _load(path: Path) -> Any:
    """The answer file as a module, imported once."""
    spec = importlib.util.spec_from_file_location(f"corpus_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _float(arg: Arg) -> bool:
    return arg.dtype.startswith("float")


def _random_value(arg: Arg, rng: np.random.Generator) -> Any:
    if arg.static is not None:
        return arg.static
    if not _float(arg):
        return rng.integers(int(arg.low), int(arg.high) + 1, size=arg.shape).astype(arg.dtype)
    if arg.sampler == "simplex":
        return rng.dirichlet(np.ones(arg.shape[-1]), size=arg.shape[:-1])
    while True:
        v = rng.uniform(arg.low, arg.high, size=arg.shape)
        flat = np.sort(v.reshape(-1))
        if "zero" in arg.avoid and np.min(np.abs(flat)) < GAP:
            continue
        if "ties" in arg.avoid and flat.size > 1 and np.min(np.diff(flat)) < GAP:
            continue
        return v


def _lattice(values: list[float], shape: tuple[int, ...], s: int) -> np.ndarray:
    """Variant s of an index argument on the lattice `values`: entry e takes values[(e + s) % n],
    so across len(values) variants every entry takes every value."""
    size = int(np.prod(shape))
    return np.asarray([values[(e + s) % len(values)] for e in range(size)], np.float64).reshape(shape)


def _edge_variants(label: str, arg: Arg, rng: np.random.Generator) -> list[np.ndarray]:
    """The values `arg` takes in the draws for edge `label`."""
    if label == "integer":
        lattice = [float(k) for k in range(int(np.ceil(arg.low)), int(np.floor(arg.high)) + 1)]
        return [_lattice(lattice, arg.shape, s) for s in range(len(lattice))]
    if label == "half-integer":
        lattice = [k + 0.5 for k in range(int(np.floor(arg.low)), int(np.ceil(arg.high)))
                   if arg.low <= k + 0.5 <= arg.high]
        return [_lattice(lattice, arg.shape, s) for s in range(len(lattice))]
    if label == "one-hot":
        n = arg.shape[-1]
        rows = int(np.prod(arg.shape[:-1]))
        return [np.eye(n)[(np.arange(rows) + s) % n].reshape(arg.shape) for s in range(n)]
    if label == "repeated":
        picks = [int(arg.low), int(arg.high), int(rng.integers(int(arg.low), int(arg.high) + 1))]
        return [np.full(arg.shape, k, dtype=arg.dtype) for k in picks]
    return []  # large and small magnitudes: not needed to show a mistake


def _with_guard(puzzle: Puzzle, make: Callable[[], list[Any]]) -> list[Any]:
    # The puzzle's own domain (`_domain`), as the checker draws it: a draw it refuses proves nothing.
    for _ in range(1000):
        values = make()
        if puzzle.guard is None or _domain.holds(puzzle.guard, values):
            return values
    raise AssertionError(f"{puzzle.name}: no draw passed the guard {puzzle.guard!r} in 1000 tries")


def _draws(puzzle: Puzzle, seed: int = 0) -> list[tuple[Any, ...]]:
    """Random draws, draws with one and two exact zeros, every named edge, more random draws."""
    rng = np.random.default_rng(seed)

    def random_draw() -> list[Any]:
        return [_random_value(arg, rng) for arg in puzzle.args]

    result = [_with_guard(puzzle, random_draw) for _ in range(RANDOM_DRAWS)]
    for zeros in (1, 2):
        def zero_draw(zeros: int = zeros) -> list[Any]:
            values = random_draw()
            for arg, v in zip(puzzle.args, values):
                if "zero entry" in arg.edge_names and "zero" not in arg.avoid:
                    v.reshape(-1)[rng.choice(v.size, size=min(zeros, v.size), replace=False)] = 0
            return values
        result.append(_with_guard(puzzle, zero_draw))
    labels = sorted({label for arg in puzzle.args for label in arg.edge_names} - {"zero entry", "two zero entries"})
    for label in labels:
        variants = {k: _edge_variants(label, arg, rng) for k, arg in enumerate(puzzle.args) if label in arg.edge_names}
        for s in range(max((len(v) for v in variants.values()), default=0)):
            def edge_draw(variants: dict[int, Any] = variants, s: int = s) -> list[Any]:
                values = random_draw()
                for k, options in variants.items():
                    values[k] = options[s % len(options)]
                return values
            result.append(_with_guard(puzzle, edge_draw))
    result += [_with_guard(puzzle, random_draw) for _ in range(RANDOM_DRAWS)]
    return [
        tuple(v if arg.static is not None else np.asarray(v).astype(arg.dtype) for arg, v in zip(puzzle.args, values))
        for values in result
    ]


def _arrays(puzzle: Puzzle, values: tuple[Any, ...]) -> list[Any]:
    """A draw as an answer receives it: JAX arrays, and each static argument as its Python int."""
    import jax.numpy as jnp

    return [v if arg.static is not None else jnp.asarray(v) for arg, v in zip(puzzle.args, values)]


def _expected(puzzle: Puzzle, args: list[Any]) -> tuple[np.ndarray, ...]:
    """JAX's blocks, flat and output-major: the Jacobians, or for a backward pass the cotangents."""
    import jax

    if puzzle.is_vjp:
        *f_args, g = args
        floating = [k for k, arg in enumerate(puzzle.f_args) if arg.differentiable]

        def on_floating(*chosen: Any) -> Any:
            full = list(f_args)
            for k, v in zip(floating, chosen):
                full[k] = v
            return puzzle.f(*full)

        _, pullback = jax.vjp(on_floating, *(f_args[k] for k in floating))
        return tuple(np.asarray(c) for c in pullback(g))
    jac = jax.jacfwd(puzzle.f, argnums=puzzle.argnums)(*args)
    per_output = jac if len(puzzle.outs) > 1 else (jac,)
    return tuple(np.asarray(b) for out in per_output for b in (out if len(puzzle.wrt) > 1 else (out,)))


def _answer_blocks(puzzle: Puzzle, raw: Any) -> list[Any] | None:
    """The answer's blocks in the same flat order, or None when its nesting is not the puzzle's."""
    groups = list(raw) if len(puzzle.outs) > 1 and isinstance(raw, (tuple, list)) else [raw]
    if len(groups) != len(puzzle.outs):
        return None
    blocks: list[Any] = []
    for group in groups:
        if len(puzzle.wrt) == 1:
            if isinstance(group, tuple) and len(group) != 1:
                return None
            blocks.append(group[0] if isinstance(group, tuple) else group)
        elif isinstance(group, (tuple, list)) and len(group) == len(puzzle.wrt):
            blocks += list(group)
        else:
            return None
    return blocks


@functools.cache
def _cases(name: str) -> tuple[tuple[list[Any], tuple[np.ndarray, ...]], ...]:
    """Each draw of a puzzle as the answer's arguments, with JAX's expected blocks."""
    puzzle = CATALOG[name]
    cases = []
    for values in _draws(puzzle):
        args = _arrays(puzzle, values)
        cases.append((args, _expected(puzzle, args)))
    return tuple(cases)


def _numbers(dtype: np.dtype[Any]) -> bool:
    """numpy's numbers, and ml_dtypes' (bfloat16, the float8s, int4), which numpy does not count."""
    import jax.numpy as jnp

    return dtype.kind in "biuf" or (dtype.kind == "V" and bool(jnp.issubdtype(dtype, jnp.number)))


def _matches(yours: object, expected: np.ndarray) -> bool:
    try:
        a = np.asarray(yours)
    except ValueError:  # a ragged list
        return False
    if a.shape != expected.shape or not _numbers(a.dtype):
        return False
    e = np.asarray(expected, dtype=np.float64)
    a = a.astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(e), initial=0.0)))
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isfinite(a) & (np.abs(a - e) <= 1e-5 * scale + 1e-4 * np.abs(e))))


def _right_on(entry: Entry, args: list[Any], expected: tuple[np.ndarray, ...]) -> bool:
    puzzle = CATALOG[entry.puzzle]
    answer = getattr(_load(entry.path), puzzle.answer_name)
    blocks = _answer_blocks(puzzle, answer(*args))
    return blocks is not None and len(blocks) == len(expected) and all(_matches(y, e) for y, e in zip(blocks, expected))


def _wrong_at(entry: Entry, witness: tuple[Any, ...]) -> bool:
    """Whether the entry is outside the contract at its WITNESS (an input inside the puzzle's
    domain, where its mistake shows): the tolerance of the precision it returns, against each
    block's own scale, with no absolute floor (a witness at entries of 1e-40 shows a mistake of
    that size)."""
    puzzle = CATALOG[entry.puzzle]
    values = tuple(v if arg.static is not None else np.asarray(v, dtype=np.float64 if _float(arg) else arg.dtype)
                   for arg, v in zip(puzzle.args, witness))
    assert puzzle.guard is None or _domain.holds(puzzle.guard, values), f"{entry.id}: the witness fails the guard"
    with pinned():  # in float64, as the checker computes: float32 would flush the witness itself
        args = _arrays(puzzle, values)
        expected = _expected(puzzle, args)
        blocks = _answer_blocks(puzzle, getattr(_load(entry.path), puzzle.answer_name)(*args))
    if blocks is None or len(blocks) != len(expected):
        return True
    for yours, e in zip(blocks, expected):
        rtol, atol = tolerance(np.asarray(yours).dtype)
        a, e = np.asarray(yours, dtype=np.float64), np.asarray(e, dtype=np.float64)
        scale = float(np.max(np.abs(e), initial=0.0)) or 1.0
        if a.shape != e.shape or not np.all(np.isfinite(a) & (np.abs(a - e) <= atol * scale + rtol * np.abs(e))):
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES if e.status is Status.FAIL])
def test_fail_entry_is_really_wrong(entry: Entry) -> None:
    # An entry whose mistake lives on a sliver of the domain (a tolerance of one ulp, entries
    # below float32's range) names an input there, WITNESS, which the random draws here miss.
    witness = getattr(_load(entry.path), "WITNESS", None)
    if witness is not None:
        assert _wrong_at(entry, witness), f"{entry.id} is right at its WITNESS: it is not a wrong answer"
        return
    for args, expected in _cases(entry.puzzle):
        if not _right_on(entry, args, expected):
            return
    pytest.fail(f"{entry.id} is right on every draw: it is not a wrong answer")


@pytest.mark.slow
@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES if e.status is Status.PASS])
def test_pass_entry_is_really_right(entry: Entry) -> None:
    for k, (args, expected) in enumerate(_cases(entry.puzzle)):
        assert _right_on(entry, args, expected), (f"{entry.id} is wrong on draw {k}: "
                                                  f"{[np.asarray(a).tolist() for a in args if hasattr(a, 'shape')]}")
