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


def write_answer(folder: Path, name: str, body: str) -> Path:
    """Write an answer file `<folder>/<name>.py` holding `body`; returns its path."""
    path = folder / f"{name}.py"
    path.write_text(body)
    return path


@pytest.fixture
def answer(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`answer(name, body)` writes an answer file in a fresh folder and returns its path."""
    return lambda name, body: write_answer(tmp_path, name, body)
