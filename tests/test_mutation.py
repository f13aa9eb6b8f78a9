"""Mutation testing of the checker: no proven-wrong mutant of a reference answer may pass.

The mutants and the independent check that proves them wrong live in `checker/authoring/mutation/`
(`jacpuzzles pack check` uses them too); the score is `tests/mutation/score.py`
(`python3 -m tests.mutation.score` prints the full report).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `tests` is not a package: make `tests.mutation` importable
    sys.path.insert(0, str(REPO))

import checker  # noqa: E402
from checker.authoring import mutation as M  # noqa: E402
from tests.mutation import score as mutation_score  # noqa: E402

SMALL = ("relu", "prod", "linear_lookup")
# The precision operators in the default tier: a fixed subset of puzzles that between them have a
# site of each (the slow tier runs them on every puzzle, in the score).
PRECISION_SUBSET = ("gelu", "relu", "sort", "max_pool", "attention")


def _survivors(score: mutation_score.Score) -> str:
    lines = [f"{s.id} passed on seeds {list(s.passed_seeds)} ({s.detail}); witness: {s.witness[:400]}"
             for s in score.survivors]
    lines += [f"problem: {p[:400]}" for p in score.problems]
    return "\n".join(lines)


def _jac(name: str, path: Path) -> object:
    spec = importlib.util.spec_from_file_location(f"_precision_mutant_{path.parent.name}_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.jac


def test_operators_are_registered_once() -> None:
    assert M.OPERATORS == tuple(M.REGISTRY) and len(set(M.OPERATORS)) == len(M.OPERATORS)
    assert set(M.CORE) | set(M.PRECISION) == set(M.OPERATORS) and not set(M.CORE) & set(M.PRECISION)
    assert all(op.what and (op.sites is None) != (op.whole is None) for op in M.REGISTRY.values())


@pytest.mark.parametrize("name", PRECISION_SUBSET)
def test_precision_mutants_are_proven_and_refused(name: str) -> None:
    """Every precision mutant the prover shows wrong inside the contract is refused by
    `check_answer` on seed 0; and each puzzle of the subset has at least one."""
    found = M.mutants(name, operators=M.PRECISION)
    with tempfile.TemporaryDirectory(prefix=f"precision-{name}-") as tmp:
        paths = [M.write(m, Path(tmp) / str(k)) for k, m in enumerate(found)]
        witnesses = M.prove_many(name, paths)
        proven = [(m, p, w) for m, p, w in zip(found, paths, witnesses) if w is not None]
        assert proven, f"{name}: none of {[m.id for m in found]} proven wrong"
        passed = []
        for mutant, path, witness in proven:
            verdict = checker.check_answer(name, _jac(name, path), seed=0)
            if verdict.status is checker.Status.PASS:
                passed.append(f"{mutant.id} ({mutant.detail}); witness: {str(witness)[:300]}")
    assert not passed, "false passes:\n" + "\n".join(passed)


def test_precision_operators_all_have_sites_in_the_subset() -> None:
    ops = {m.operator for name in PRECISION_SUBSET for m in M.mutants(name, operators=M.PRECISION)}
    assert ops == set(M.PRECISION), ops


@pytest.mark.slow
def test_small_puzzles_kill_every_proven_mutant() -> None:
    score = mutation_score.run(SMALL, seeds=(0,), jobs=1, operators=M.CORE)
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
