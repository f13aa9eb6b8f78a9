"""Shared fixtures: the repository's paths, and a private cache of expected Jacobians."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
SOLUTIONS = REPO / "solutions"

# One cache for the whole run, never the learner's own (set before any check runs).
os.environ.setdefault("JACPUZZLES_CACHE", tempfile.mkdtemp(prefix="jacpuzzles-test-cache-"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow", action="store_true", default=False,
        help="also run the slow tier: mutation score, twenty more seeds, the full corpora, grading corpora, "
        "the wheel, live TensorFlow (`.ci/run` always does)",
    )


# Test files that run the class grader: under pytest-xdist they share one worker, one after the
# other, so that two graders never compete for the two cores (and their budgets) at once.
GRADING = {
    "test_autodiff_routes.py", "test_autograde.py", "test_classroom_workflow.py", "test_grade.py",
    "test_grade_agrees_with_check.py", "test_grade_corpus.py", "test_grade_malformed.py",
    "test_grade_shard.py", "test_grade_soundness.py", "test_grade_text.py", "test_sandbox_trust.py",
    "test_disk_full.py",  # and a run beside it would share its disk: its jobs would not be alone
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test file is one group for pytest-xdist (`--dist loadgroup`: a file's class-grading
    fixture runs once), the grading files one group together. Without `--slow` (or a `-m`
    expression of one's own), the slow tier is left out."""
    for item in items:
        name = item.path.name
        item.add_marker(pytest.mark.xdist_group("grading" if name in GRADING else name))
    if config.getoption("--slow") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
        config.hook.pytest_deselected(items=slow)


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--slow"):
        return "slow tier: included (--slow)"
    return "slow tier: left out; `python3 -m pytest --slow -n 0` runs it too (CI does)"


def write_answer(folder: Path, name: str, body: str) -> Path:
    """Write an answer file `<folder>/<name>.py` holding `body`; returns its path."""
    path = folder / f"{name}.py"
    path.write_text(body)
    return path


@pytest.fixture
def answer(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`answer(name, body)` writes an answer file in a fresh folder and returns its path."""
    return lambda name, body: write_answer(tmp_path, name, body)
