"""The reference answers under solutions/: every one passes, and none cheats with JAX autodiff."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from checker import Status, check_file, puzzles
from checker.engine._stubs import MARKER

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
SEEDS = (0, 1, 2)
# Any of these below the marker computes the Jacobian with JAX instead of writing it down.
# (`def vjp(` is the answer a backward-pass puzzle asks for, not a call.)
AUTODIFF = re.compile(r"jacfwd|jacrev|grad\(|(?<!def )\bvjp\b|jvp|linearize|hessian|custom_vjp")

NAMES = [p.name for p in puzzles()]


def solution_path(name: str) -> Path:
    puzzle = next(p for p in puzzles() if p.name == name)
    return SOLUTIONS / puzzle.chapter / f"{name}.py"


def answer_part(name: str) -> str:
    text = solution_path(name).read_text()
    head, sep, tail = text.partition(MARKER)
    assert sep, f"{solution_path(name)} has lost its marker line"
    return tail


def test_every_puzzle_has_a_solution() -> None:
    missing = [name for name in NAMES if not solution_path(name).is_file()]
    assert not missing, f"no reference answer for {missing}"


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", NAMES)
def test_solution_passes(name: str, seed: int) -> None:
    verdict = check_file(name, solution_path(name), seed=seed)
    assert verdict.status is Status.PASS, f"{name} (seed {seed}): {verdict.message} {verdict.kinds()}"


@pytest.mark.parametrize("name", NAMES)
def test_solution_uses_no_autodiff(name: str) -> None:
    hits = [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(answer_part(name).splitlines(), 1)
        if AUTODIFF.search(line)
    ]
    assert not hits, f"{name}'s reference answer calls JAX autodiff below the marker: {hits}"


@pytest.mark.parametrize("name", NAMES)
def test_solution_is_not_the_stub(name: str) -> None:
    assert "NotImplementedError" not in answer_part(name), f"{name}'s reference answer is still the stub"


# Twenty more seeds, in blocks of five: each block is one test, so the slow tier's workers share them.
MORE_SEEDS = tuple(range(3, 23))
BLOCK = 5


@pytest.mark.slow
@pytest.mark.parametrize("first", MORE_SEEDS[::BLOCK])
def test_every_solution_passes_on_twenty_more_seeds(first: int) -> None:
    """No false fails either: the tolerance and the draws leave every right answer passing."""
    # Each answer is loaded once and checked as a function, so JAX compiles it (and each
    # puzzle's oracles) once for the block's seeds: every seed has the same number of draws.
    from checker import check_answer

    answers = {name: _load_answer(name) for name in NAMES}
    failures = [
        (seed, name, verdict.message)
        for seed in range(first, first + BLOCK)
        for name, jac in answers.items()
        if (verdict := check_answer(name, jac, seed=seed)).status is not Status.PASS
    ]
    assert failures == []


def _load_answer(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"solution_{name}", solution_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    puzzle = next(p for p in puzzles() if p.name == name)
    return getattr(module, puzzle.answer_name)
