"""The same answer gets the same verdict from `check` and from `grade`.

Every right answer the kit has (the corpus's `pass` entries and the red team's right ones, each
written another way than the reference answer) is graded as a class, the k-th right answer of
each puzzle in the k-th student's submission, and compared with `check` on the same seed. A
right answer that `check` passes and `grade` marks `error` (a module the worker cannot import,
say) fails here, named.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from checker import Status, check_file
from checker.engine._catalog import puzzle_named
from tests.conftest import REPO

# A class run is one fixture, charged to one test's time: room for a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

CORPUS = REPO / "tests" / "corpus"
REDTEAM = REPO / "tests" / "redteam"


def _right_answers() -> dict[str, list[Path]]:
    """Puzzle name -> the right answers written for it, in a stable order."""
    found: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(CORPUS.glob("*/*/*.py")) + sorted(REDTEAM.glob("*/*.py")):
        first = path.read_text().splitlines()[0]
        if first.split(":", 1)[-1].split() == ["pass"]:
            found[path.parent.name].append(path)
    for path in sorted(CORPUS.glob("special/*.py")):
        lines = path.read_text().splitlines()
        if lines[0].split(":", 1)[-1].split() == ["pass"]:
            found[lines[1].split(":", 1)[1].strip()].append(path)
    return found


def test_every_right_answer_gets_the_same_verdict_from_grade_as_from_check(tmp_path: Path) -> None:
    answers = _right_answers()
    assert sum(map(len, answers.values())) >= 40, "the corpora's right answers went missing"
    subs = tmp_path / "submissions"
    placed: dict[tuple[str, str], Path] = {}
    for name, paths in answers.items():
        chapter = puzzle_named(name).chapter
        for k, path in enumerate(paths):
            student = f"student{k:02d}"
            (subs / student / chapter).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, subs / student / chapter / f"{name}.py")
            placed[(student, name)] = path
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--jobs", "2"],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=1800,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    disagree = []
    for (student, name), path in sorted(placed.items()):
        doc = json.loads((out / f"{student}.json").read_text())
        graded = {r["puzzle"]: r for r in doc["results"]}[name]
        checked = check_file(name, path)
        if graded["status"] != checked.status.value or checked.status is not Status.PASS:
            disagree.append(
                f"{path.relative_to(REPO)}: check {checked.status.value}, grade {graded['status']}: "
                f"{graded.get('message', '')}"
            )
    assert not disagree, "\n".join(disagree)
