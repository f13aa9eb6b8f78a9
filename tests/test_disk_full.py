"""A scratch disk filled by a submission: a job whose results could not be written because the
disk was full is run again once, then `ungradable` (graded again by the next run), never given
0; a job that filled the disk with files of its own folder is blamed for it. Each class is
graded one job at a time, so what the disk holds when each job runs does not depend on timing.
The scratch folder is a small tmpfs mounted for the test (root), and namespaces are off, so job
folders live on it."""

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
WRONG = RIGHT + "\n\ndef jac(x):\n    return 0.5 * np.tri(10)\n"
# Fills the disk at import, in 16 MB writes, with files named under the job's HOME.
FILL = '''
import os
_home = os.environ["HOME"]
try:
    for _i in range(64):
        with open(os.path.join(_home, f"fill{_i}"), "wb") as _f:
            for _ in range(4):
                _f.write(b"\\1" * (16 << 20))
except OSError:
    pass
'''
# The same, but each file unlinked while held open: the job's folder looks empty (the space is
# freed when the worker ends), so the job is not blamed and ends `ungradable`, never 0.
FILL_UNLINKED = '''
import os
_home = os.environ["HOME"]
_held = []
try:
    for _i in range(64):
        _path = os.path.join(_home, f"fill{_i}")
        _f = open(_path, "wb")
        _held.append(_f)
        os.unlink(_path)
        for _ in range(4):
            _f.write(b"\\1" * (16 << 20))
except OSError:
    pass
'''


@pytest.fixture
def small_scratch(tmp_path: Path):  # type: ignore[no-untyped-def]
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs as the scratch folder needs root")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200m", "tmpfs", str(scratch)], check=True)
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


def _grade(subs: Path, out: Path, scratch: Path) -> dict[str, dict[str, str]]:
    env = environ(TMPDIR=str(scratch), JACPUZZLES_NO_NAMESPACES="1", COLUMNS="200")  # job folders on the tmpfs
    result = run_grade(subs, wait=500, env=env, out=out, assignment=ASSIGNMENT, timeout=15, jobs=1)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    return _grades(out)


def test_results_lost_to_a_full_disk_are_ungradable_never_0(small_scratch: Path, tmp_path: Path) -> None:
    # Graded in name order: the filler first, its classmate after it, on a disk freed again.
    subs = _class(tmp_path, {"a_filler": FILL_UNLINKED + RIGHT, "b_right": RIGHT})
    grades = _grade(subs, tmp_path / "out", small_scratch)
    filler = grades["a_filler"]
    assert filler["status"] == "ungradable", filler
    assert "was full" in filler["reason"], filler
    assert grades["b_right"]["status"] == "graded" and float(grades["b_right"]["cumsum"]) > 0, grades["b_right"]
    assert not list(small_scratch.iterdir()), list(small_scratch.iterdir())  # nothing left behind


def test_a_submission_filling_the_disk_with_its_own_files_is_blamed(small_scratch: Path, tmp_path: Path) -> None:
    subs = _class(tmp_path, {"a_filler": FILL + WRONG, "b_right": RIGHT})
    out = tmp_path / "out"
    grades = _grade(subs, out, small_scratch)
    assert grades["a_filler"]["status"] == "graded" and grades["a_filler"]["score"] == "0", grades["a_filler"]
    assert "filled the grader's disk" in (out / "a_filler.json").read_text()
    assert grades["b_right"]["status"] == "graded" and float(grades["b_right"]["cumsum"]) > 0, grades["b_right"]


def test_saying_the_disk_was_full_without_filling_it_is_no_excuse(small_scratch: Path, tmp_path: Path) -> None:
    # The words of a worker that lost its results to a full disk, then a death of its own.
    says = ('import os, signal, sys\nsys.stderr.write("OSError: [Errno 28] No space left on device\\n")\n'
            "sys.stderr.flush()\nos.kill(os.getpid(), signal.SIGKILL)\n")
    subs = _class(tmp_path, {"a_liar": says + WRONG, "b_right": RIGHT})
    out = tmp_path / "out"
    grades = _grade(subs, out, small_scratch)
    assert grades["a_liar"]["status"] == "graded" and grades["a_liar"]["score"] == "0", grades["a_liar"]
    assert "killed by SIGKILL" in (out / "a_liar.json").read_text()  # an error of its own, not the disk's
    assert grades["b_right"]["status"] == "graded" and float(grades["b_right"]["cumsum"]) > 0, grades["b_right"]
