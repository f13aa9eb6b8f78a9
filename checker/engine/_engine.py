"""The pipeline for one puzzle: draws -> expected Jacobians -> run the answer -> verdict.

The expected Jacobians are computed before any learner code runs, under the kit's pinned
numeric settings (`_numerics`): nothing an answer does to JAX's configuration or to the modules
it imports can change them. A file that cannot run at all (missing, the untouched stub) gets its
verdict without waiting for JAX.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from checker.engine import _numerics, _oracles, _report, _runner, _sampling, _tf_oracle, _variants
from checker.engine._catalog import Puzzle
from checker.engine._judge import Oracle, block_names, judge, published_answer
from checker.engine._runner import Run
from checker.engine._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker.engine._verdict import Diagnosis, Kind, Status, Verdict


def check_file(name: str, path: str | Path, seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT) -> Verdict:
    """Check the `jac` defined in the file at `path` against puzzle `name`.

    Only `jac` is taken from the file; its `f`, if any, is ignored.
    """
    return check_files([(name, path)], seed, timeout)[0]


def check_files(
    items: Sequence[tuple[str, str | Path]], seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT,
    variants: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Verdict]:
    """Check several answer files, `(puzzle name, path)` each; verdicts in the same order.
    `variants` maps a puzzle name to its variant's choices (the canonical puzzle otherwise).

    The expected Jacobians of every answer that can run are computed first, in one go (one
    compilation for the lot); then each answer runs.
    """
    with _numerics.pinned():
        work = []
        for name, path in items:
            puzzle = _variants.variant(name, (variants or {}).get(name))
            work.append((puzzle, _sampling.draws(puzzle, seed), Path(path), _runner.precheck(puzzle, Path(path))))
        expected = _expected([(p, d) for p, d, _, early in work if early is None])
        verdicts = []
        for puzzle, draws, path, early in work:
            run = early if early is not None else _runner.run(puzzle, path, draws, timeout)
            verdict = _verdict(puzzle, draws, run, seed, expected.get(puzzle.name))
            verdicts.append(dataclasses.replace(verdict, path=str(path)))
        return verdicts


def check_answer(
    name: str, jac: Callable[..., Any], seed: int = DEFAULT_SEED, timeout: float = DEFAULT_TIMEOUT,
    variant: Mapping[str, Any] | None = None,
) -> Verdict:
    """Check a `jac` function directly (from a notebook cell or a test), against the variant
    of puzzle `name` with the choices `variant` (the canonical puzzle when None)."""
    puzzle = _variants.variant(name, variant)
    with _numerics.pinned():
        draws = _sampling.draws(puzzle, seed)
        expected = _expected([(puzzle, draws)]).get(puzzle.name)
        run = _runner.run_callable(puzzle, jac, draws, timeout)
        return _verdict(puzzle, draws, run, seed, expected)


# Per puzzle: JAX's expected blocks and the other oracles' (see `judge`), or the disagreement
# between oracles that makes that one puzzle a kit bug.
_PerPuzzle = tuple[list[_oracles.Blocks], list[Oracle]] | _oracles.OracleDisagreement
_Expected = dict[str, _PerPuzzle]


def _expected(work: list[tuple[Puzzle, tuple[_sampling.Draw, ...]]]) -> _Expected:
    """Expected blocks per puzzle from every oracle, cross-checked against each other."""
    try:
        jax_blocks: dict[str, list[_oracles.Blocks] | _oracles.OracleDisagreement] = dict(_oracles.expected_many(work))
    except _oracles.OracleDisagreement:
        jax_blocks = {}
        for puzzle, draws in work:  # rare: find which puzzle it was, keep the others
            try:
                jax_blocks[puzzle.name] = _oracles.expected(puzzle, draws)
            except _oracles.OracleDisagreement as bug:
                jax_blocks[puzzle.name] = bug
    found: _Expected = {}
    for puzzle, draws in work:
        blocks = jax_blocks[puzzle.name]
        if isinstance(blocks, _oracles.OracleDisagreement) or not _tf_oracle.covers(puzzle):
            found[puzzle.name] = blocks if isinstance(blocks, _oracles.OracleDisagreement) else (blocks, [])
            continue
        tf = _tf_oracle.expected(puzzle, draws)
        try:
            _tf_oracle.cross_check(puzzle, draws, blocks, tf)
        except _oracles.OracleDisagreement as bug:
            found[puzzle.name] = bug
            continue
        found[puzzle.name] = (blocks, [(tf.label, tf.blocks, tf.note)])
    return found


def _verdict(
    puzzle: Puzzle, draws: tuple[_sampling.Draw, ...], run: Run, seed: int, expected: _PerPuzzle | None
) -> Verdict:
    """The verdict on one run, every text that came from the answer made printable (it is shown
    on terminals, and written where an instructor will `cat` it)."""
    return _report.printable_verdict(_judged(puzzle, draws, run, seed, expected))


def _judged(
    puzzle: Puzzle, draws: tuple[_sampling.Draw, ...], run: Run, seed: int, expected: _PerPuzzle | None
) -> Verdict:
    if run.problem is not None:
        p = run.problem
        return Verdict(
            puzzle.name, p.status, p.message, (Diagnosis(p.kind, p.message),),
            location=p.location, output=run.output, draws=len(draws), seed=seed,
        )
    if isinstance(expected, _oracles.OracleDisagreement):
        message = str(expected)
        return Verdict(
            puzzle.name,
            Status.ERROR,
            message,
            (Diagnosis(Kind.KIT_BUG, message),),
            output=run.output,
            draws=len(draws),
            seed=seed,
        )
    assert expected is not None, "the Jacobians of every answer that runs are computed first"
    blocks, others = expected
    verdict = _published_answer(puzzle, draws, judge(puzzle, draws, blocks, run.answers, seed, others))
    return dataclasses.replace(verdict, output=run.output)


def _published_answer(puzzle: Puzzle, draws: tuple[_sampling.Draw, ...], verdict: Verdict) -> Verdict:
    """A variant's `fail` with the published puzzle's answer handed in (another temperature, an
    axis of its own): said first. The published Jacobian is computed on the failing draw alone,
    and only for a variant that fails, so no other check pays for it."""
    failure = verdict.failure
    if failure is None or not puzzle.variant or puzzle.is_vjp or Kind.PUBLISHED in verdict.kinds():
        return verdict
    published = _variants.variant(puzzle.name)
    if ([a.shape for a in published.args] != [a.shape for a in puzzle.args]
            or published.jac_shapes() != puzzle.jac_shapes()):
        return verdict
    draw = next(d for d in draws if d.label == failure.draw_label)
    try:
        theirs = _oracles.expected(published, (draw,))[0]
    except _oracles.OracleDisagreement:
        return verdict
    found = published_answer(puzzle, failure, theirs[block_names(puzzle).index(failure.block)])
    if found is None:
        return verdict
    first = verdict.diagnoses[0].message if verdict.diagnoses else ""
    where = verdict.message[len(first):] if verdict.message.startswith(first) else ""
    return dataclasses.replace(verdict, message=found.message + where, diagnoses=(found, *verdict.diagnoses))
