"""The wrong-answer corpus: classic mistakes, each with the verdict the checker must give.

Every file under tests/corpus/ starts with `# expect: <status> [<kind> ...]`: the status the
checker must return, and diagnosis kinds that must all appear among `verdict.kinds()`.
Files under corpus/autodiff/<puzzle>/ answer <puzzle>; files under corpus/special/ name their
puzzle on a second line, `# puzzle: <name>`.

A `fail` entry is also checked to be really wrong, against `jax.jacfwd` directly, so a checker
that passes it would be giving a false pass.
"""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from checker import Kind, Status, check_file, puzzles

CORPUS = Path(__file__).resolve().parent / "corpus"
# jac of the hang fixture must be cut off quickly; everything else gets the default timeout.
SHORT_TIMEOUT = 2.0
MIN_ENTRIES = 2


@dataclass(frozen=True)
class Entry:
    path: Path
    puzzle: str
    status: Status
    kinds: tuple[Kind, ...]

    @property
    def id(self) -> str:
        return str(self.path.relative_to(CORPUS).with_suffix(""))


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
    return sorted(CORPUS.glob("autodiff/*/*.py")) + sorted(CORPUS.glob("special/*.py"))


ENTRIES = [_entry(p) for p in _paths()]
NAMES = {p.name for p in puzzles()}


def _param(entry: Entry) -> object:
    return pytest.param(entry, id=entry.id)


# ---------------------------------------------------------------------------------------------
# The corpus itself


def test_corpus_is_not_empty() -> None:
    assert len(ENTRIES) > 2 * len(NAMES)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_puzzle_has_enough_mistakes(name: str) -> None:
    entries = [e for e in ENTRIES if e.path.parent.name == name]
    assert len(entries) >= MIN_ENTRIES, f"{name} has {len(entries)} corpus entries, want at least {MIN_ENTRIES}"


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_entry_is_well_formed(entry: Entry) -> None:
    assert entry.puzzle in NAMES, f"{entry.id}: no puzzle named {entry.puzzle!r}"
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
# The corpus against jax.jacfwd directly: a `fail` entry must really be wrong.


def _load(path: Path) -> object:
    spec = importlib.util.spec_from_file_location(f"corpus_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _draws(name: str, seed: int = 0) -> list[tuple[np.ndarray, ...]]:
    """Random draws, then draws with one and two exact zeros (where the domain allows them)."""
    puzzle = next(p for p in puzzles() if p.name == name)
    rng = np.random.default_rng(seed)

    def random_draw() -> list[np.ndarray]:
        values = []
        for arg in puzzle.args:
            while True:
                v = rng.uniform(arg.low, arg.high, size=arg.shape)
                flat = np.sort(v.reshape(-1))
                if "zero" in arg.avoid and np.min(np.abs(flat)) < 1e-2:
                    continue
                if "ties" in arg.avoid and flat.size > 1 and np.min(np.diff(flat)) < 1e-2:
                    continue
                break
            values.append(v)
        return values

    result = [random_draw() for _ in range(4)]
    for zeros in (1, 2):
        values = random_draw()
        for arg, v in zip(puzzle.args, values):
            if "zero" not in arg.avoid:
                v.reshape(-1)[rng.choice(v.size, size=min(zeros, v.size), replace=False)] = 0
        result.append(values)
    return [tuple(v.astype(np.float32) for v in values) for values in result]


def _matches(yours: object, expected: np.ndarray) -> bool:
    a = np.asarray(yours)
    if a.shape != expected.shape or a.dtype.kind not in "biuf":
        return False
    e = np.asarray(expected, dtype=np.float64)
    a = a.astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(e))))
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isfinite(a) & (np.abs(a - e) <= 1e-5 * scale + 1e-4 * np.abs(e))))


@pytest.mark.slow
@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES if e.status is Status.FAIL])
def test_fail_entry_is_really_wrong(entry: Entry) -> None:
    import jax
    import jax.numpy as jnp

    puzzle = next(p for p in puzzles() if p.name == entry.puzzle)
    jac = _load(entry.path).jac  # type: ignore[attr-defined]
    for values in _draws(entry.puzzle):
        args = [jnp.asarray(v) for v in values]
        expected = jax.jacfwd(puzzle.f, argnums=puzzle.argnums)(*args)
        expected = expected if isinstance(expected, tuple) else (expected,)
        yours = jac(*args)
        yours = tuple(yours) if len(expected) > 1 else (yours,)
        if len(yours) != len(expected) or not all(_matches(y, e) for y, e in zip(yours, expected)):
            return
    pytest.fail(f"{entry.id} is right on every draw: it is not a wrong answer")
