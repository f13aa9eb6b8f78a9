"""Mutation testing of the checker: no proven-wrong mutant of a reference answer may pass.

The mutants and the independent dense check that proves them wrong live in `checker/authoring/_mutation.py`
(`jacpuzzles pack check` uses them too); the score is
`tests/mutation/score.py` (`python3 -m tests.mutation.score` prints the full report).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `tests` is not a package: make `tests.mutation` importable
    sys.path.insert(0, str(REPO))

from tests.mutation import score as mutation_score  # noqa: E402

SMALL = ("relu", "prod", "linear_lookup")


def _survivors(score: mutation_score.Score) -> str:
    lines = [f"{s.id} passed on seeds {list(s.passed_seeds)} ({s.detail}); witness: {s.witness[:400]}" for s in score.survivors]
    lines += [f"problem: {p[:400]}" for p in score.problems]
    return "\n".join(lines)


@pytest.mark.slow
def test_small_puzzles_kill_every_proven_mutant() -> None:
    score = mutation_score.run(SMALL, seeds=(0,), jobs=1)
    for p in score.puzzles:
        # not vacuous: the operators must have produced something the dense check proves wrong
        assert p.proven >= 1, f"{p.puzzle}: no proven-wrong mutant among {p.generated} generated"
    assert not score.survivors and not score.problems, f"score {score.killed}/{score.proven}:\n{_survivors(score)}"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_every_puzzle_kills_every_proven_mutant() -> None:
    score = mutation_score.run(None, seeds=(0, 1, 2))
    assert score.proven > 0
    assert not score.survivors and not score.problems, (
        f"{len(score.survivors)} survivors, score {score.killed}/{score.proven}:\n{_survivors(score)}"
    )
