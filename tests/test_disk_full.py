"""A scratch disk filled by one submission, graded beside right classmates (red teams, rounds 11
and 13): the classmates whose results could not be written are run again, then `ungradable`
(graded again by the next run), never given 0; a submission that keeps the disk full with its
own files is blamed for it. The scratch folder is a small tmpfs mounted for the test (root)."""

from __future__ import annotations

import csv
import io
import os
import subprocess
from pathlib import Path

import pytest

from tests._grading import environ, run_grade
from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

ASSIGNMENT = REPO / "tests" / "grading_corpus" / "assignment.toml"
RIGHT = (REPO / "solutions" / "autodiff" / "cumsum.py").read_text()
# Fills the job's own folder (HOME) in 64 MB files until the disk is full, at import.
FILL = '''
import os, time
_home = os.environ["HOME"]
try:
    for _i in range(64):
        with open(os.path.join(_home, f"fill{_i}"), "wb") as _f:
            for _ in range(64):
                _f.write(b"\\1" * (1 << 20))
except OSError:
    pass
'''
HOLD_THEN_CLEAN = FILL + '''
time.sleep(8)
for _name in os.listdir(_home):
    if _name.startswith("fill"):
        os.unlink(os.path.join(_home, _name))
'''


@pytest.fixture
def small_scratch(tmp_path: Path):  # type: ignore[no-untyped-def]
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs as the scratch folder needs root")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300m", "tmpfs", str(scratch)], check=True)
    try:
        yield scratch
    finally:
        subprocess.run(["umount", "-l", str(scratch)], check=False)


def _class(root: Path, answers: dict[str, str]) -> Path:
    subs = root / "submissions"
    for name, text in answers.items():
        (subs / name / "autodiff").mkdir(parents=True)
        (subs / name / "autodiff" / "cumsum.py").write_text(text)
    return subs


def _grades(out: Path) -> dict[str, dict[str, str]]:
    return {row["submission"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}


def _grade(subs: Path, out: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    env = environ(TMPDIR=str(scratch), JACPUZZLES_NO_NAMESPACES="1", COLUMNS="200")  # no tmpfs job folder
    return run_grade(subs, wait=500, env=env, out=out, assignment=ASSIGNMENT, timeout=15, jobs=2)


def test_a_classmate_filling_the_disk_costs_right_answers_no_marks(small_scratch: Path, tmp_path: Path) -> None:
    right = {f"right{k}": RIGHT for k in range(3)}
    subs = _class(tmp_path, {"a_filler": HOLD_THEN_CLEAN + RIGHT, **right})
    out = tmp_path / "out"
    result = _grade(subs, out, small_scratch)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    grades = _grades(out)
    for name in right:
        row = grades[name]
        assert row["status"] == "ungradable" or float(row["cumsum"]) > 0, row  # never a 0
        if row["status"] == "ungradable":
            assert "was full" in row["reason"] or "No space left" in row["reason"], row
    assert any(grades[name]["status"] == "ungradable" for name in right), grades  # the disk was full for some


def test_a_submission_keeping_the_disk_full_with_its_own_files_is_blamed(small_scratch: Path, tmp_path: Path) -> None:
    wrong = RIGHT + "\n\ndef jac(x):\n    return 0.5 * np.tri(10)\n"
    subs = _class(tmp_path, {"a_filler": FILL + wrong, "right": RIGHT})
    out = tmp_path / "out"
    result = _grade(subs, out, small_scratch)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    grades = _grades(out)
    assert grades["a_filler"]["status"] == "graded" and grades["a_filler"]["score"] == "0", grades["a_filler"]
    doc = (out / "a_filler.json").read_text()
    assert "filled the grader's disk" in doc
    assert grades["right"]["status"] == "ungradable" or float(grades["right"]["cumsum"]) > 0, grades["right"]
