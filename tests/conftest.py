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
        help="also run the slow tier: mutation score, forty seeds, the full corpora, grading corpora, "
        "the wheel, live TensorFlow (`.ci/run` always does)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without `--slow` (or a `-m` expression of one's own), the slow tier is left out and said so."""
    if config.getoption("--slow") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
        config.hook.pytest_deselected(items=slow)


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--slow"):
        return "slow tier: included (--slow)"
    return "slow tier: left out; `python3 -m pytest --slow` runs it too (CI does)"


def write_answer(folder: Path, name: str, body: str) -> Path:
    """Write an answer file `<folder>/<name>.py` holding `body`; returns its path."""
    path = folder / f"{name}.py"
    path.write_text(body)
    return path


@pytest.fixture
def answer(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`answer(name, body)` writes an answer file in a fresh folder and returns its path."""
    return lambda name, body: write_answer(tmp_path, name, body)
