"""The pipeline for one puzzle: draws -> run the answer -> expected Jacobians -> verdict.

The expected Jacobians are computed only once the answer has run: a stub or a broken file gets
its verdict without waiting for JAX to compile anything.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Sequence

from checker import _oracles, _runner, _sampling
from checker._catalog import Puzzle, puzzle_named
from checker._judge import judge
from checker._runner import Run
from checker._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker._verdict import Diagnosis, Kind, Status, Verdict


def check_file(name: str, path: str | Path, seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT) -> Verdict:
    """Check the `jac` defined in the file at `path` against puzzle `name`.

    Only `jac` is taken from the file; its `f`, if any, is ignored.
    """
    return check_files([(name, path)], seed, timeout)[0]


def check_files(items: Sequence[tuple[str, str | Path]], seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT) -> list[Verdict]:
    """Check several answer files, `(puzzle name, path)` each; verdicts in the same order.

    Every answer runs first; the expected Jacobians of all those that ran are then computed in
    one go (one compilation for the lot).
    """
    runs = []
    for name, path in items:
        puzzle = puzzle_named(name)
        draws = _sampling.draws(puzzle, seed)
        runs.append((puzzle, draws, _runner.run(puzzle, Path(path), draws, timeout), str(path)))
    expected = _expected([(p, d) for p, d, run, _ in runs if run.problem is None])
    return [dataclasses.replace(_verdict(p, d, run, seed, expected.get(p.name)), path=path) for p, d, run, path in runs]


def check_answer(name: str, jac: Callable[..., Any], seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT) -> Verdict:
    """Check a `jac` function directly (from a notebook cell or a test)."""
    puzzle = puzzle_named(name)
    draws = _sampling.draws(puzzle, seed)
    run = _runner.run_callable(puzzle, jac, draws, timeout)
    return _verdict(puzzle, draws, run, seed, _expected([(puzzle, draws)]).get(puzzle.name) if run.problem is None else None)


_Expected = dict[str, "list[_oracles.Blocks] | _oracles.OracleDisagreement"]


def _expected(work: list[tuple[Puzzle, tuple[_sampling.Draw, ...]]]) -> _Expected:
    """Expected blocks per puzzle, or the disagreement that makes that one puzzle a kit bug."""
    try:
        return dict(_oracles.expected_many(work))
    except _oracles.OracleDisagreement:
        found: _Expected = {}
        for puzzle, draws in work:  # rare: find which puzzle it was, keep the others
            try:
                found[puzzle.name] = _oracles.expected(puzzle, draws)
            except _oracles.OracleDisagreement as bug:
                found[puzzle.name] = bug
        return found


def _verdict(puzzle: Puzzle, draws: tuple[_sampling.Draw, ...], run: Run, seed: int, expected: Any) -> Verdict:
    if run.problem is not None:
        p = run.problem
        return Verdict(
            puzzle.name, p.status, p.message, (Diagnosis(p.kind, p.message),),
            location=p.location, output=run.output, draws=len(draws), seed=seed,
        )
    if isinstance(expected, _oracles.OracleDisagreement):
        message = str(expected)
        return Verdict(puzzle.name, Status.ERROR, message, (Diagnosis(Kind.KIT_BUG, message),), output=run.output, draws=len(draws), seed=seed)
    verdict = judge(puzzle, draws, expected, run.answers, seed)
    return dataclasses.replace(verdict, output=run.output)
