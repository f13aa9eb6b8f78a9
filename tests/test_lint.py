"""The kit passes ruff, configured in pyproject.toml (`[tool.ruff]`): its rules, its exclusions
(learner files) and the reason for each rule it ignores are there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_the_kit_passes_ruff() -> None:
    # --no-cache: a test writes nothing into the checkout.
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )
    advice = "ruff's findings (`ruff check .` to see them, `--fix` for some):\n"
    assert result.returncode == 0, advice + result.stdout + result.stderr
    assert "All checks passed!" in result.stdout


def test_a_finding_fails_the_lint(tmp_path: Path) -> None:
    """The command above reports a finding as a failure: an unused import, written to a file."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", str(bad)],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )
    assert result.returncode == 1 and "F401" in result.stdout, result.stdout + result.stderr
