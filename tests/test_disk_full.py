"""A scratch disk filled by a submission: a job whose results could not be written because the
disk was full is run again, alone, on a disk with room; if the disk fills then, the job is
blamed for it (files held open after they were removed show in no folder: red team RT18), as is
a job that filled the disk with files of its own folder. A classmate's right answer is never
given 0 for it. Most classes are graded one job at a time, so what the disk holds when each job
runs does not depend on timing; the two graded side by side hold whatever the timing. The
scratch folder is a small tmpfs mounted for the test (root), and namespaces are off, so job
folders live on it."""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import os
import subprocess
import sys
import tempfile
import threading
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
# freed when the worker ends), and only running it alone tells whose doing the full disk was.
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

# Space reserved with fallocate in a file unlinked and held open: no byte written, no folder shows it.
RESERVE_UNLINKED = '''
import os
_path = os.path.join(os.environ["HOME"], "reserved")
_held = open(_path, "wb")
os.unlink(_path)
try:
    for _i in range(1024):
        os.posix_fallocate(_held.fileno(), _i << 24, 1 << 24)
except OSError:
    pass
'''


@pytest.fixture
def small_scratch():  # type: ignore[no-untyped-def]
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs as the scratch folder needs root")
    # Not under pytest's own temporary folder: that is 0700, and as root the workers run as
    # other users, who must pass through every folder above their own.
    scratch = Path(tempfile.mkdtemp(prefix="jacpuzzles-disk-"))
    scratch.chmod(0o711)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200m", "tmpfs", str(scratch)], check=True)
    try:
        yield scratch
    finally:
        subprocess.run(["umount", "-l", str(scratch)], check=False)
        scratch.rmdir()


def _class(root: Path, answers: dict[str, str]) -> Path:
    subs = root / "submissions"
    for name, text in answers.items():
        (subs / name / "autodiff").mkdir(parents=True)
        (subs / name / "autodiff" / "cumsum.py").write_text(text)
    return subs


def _grades(out: Path) -> dict[str, dict[str, str]]:
    return {row["submission"]: row for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}


def _grade(subs: Path, out: Path, scratch: Path, jobs: int = 1) -> dict[str, dict[str, str]]:
    env = environ(TMPDIR=str(scratch), JACPUZZLES_NO_NAMESPACES="1", COLUMNS="200")  # job folders on the tmpfs
    result = run_grade(subs, wait=500, env=env, out=out, assignment=ASSIGNMENT, timeout=15, jobs=jobs)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    return _grades(out)


def test_a_disk_filled_with_files_no_folder_shows_is_blamed_on_whoever_fills_it_alone(
        small_scratch: Path, tmp_path: Path) -> None:
    # Graded in name order: the filler first, its classmate after it, on a disk freed again.
    subs = _class(tmp_path, {"a_filler": FILL_UNLINKED + RIGHT, "b_right": RIGHT})
    out = tmp_path / "out"
    grades = _grade(subs, out, small_scratch)
    filler = grades["a_filler"]
    assert filler["status"] == "graded" and filler["score"] == "0", filler
    assert "ran alone" in (out / "a_filler.json").read_text()
    assert grades["b_right"]["status"] == "graded" and float(grades["b_right"]["cumsum"]) > 0, grades["b_right"]
    assert not list(small_scratch.iterdir()), list(small_scratch.iterdir())  # nothing left behind


@pytest.mark.parametrize(("fill", "answer"), [("written", "right"), ("written", "wrong"), ("reserved", "wrong")])
def test_side_by_side_a_filler_gets_0_and_its_classmates_their_marks_even_with_the_results_on_that_disk(
        small_scratch: Path, tmp_path: Path, fill: str, answer: str) -> None:
    """Red team RT18: with two jobs at once, a filler of files held open made its classmates
    `ungradable`, a wrong filler turned its own 0 into `ungradable`, space reserved with
    fallocate made the grader's own folders for classmates fail, and where the results folder
    shared the disk the whole run stopped. Both classmates run beside the filler."""
    filler = (FILL_UNLINKED if fill == "written" else RESERVE_UNLINKED) + (RIGHT if answer == "right" else WRONG)
    subs = _class(tmp_path, {"a_filler": filler, "b_right": RIGHT, "c_right": RIGHT})
    scratch = small_scratch / "tmp"
    scratch.mkdir()
    out = small_scratch / "out"  # the results folder on the disk being filled
    grades = _grade(subs, out, scratch, jobs=2)
    assert grades["a_filler"]["status"] == "graded" and grades["a_filler"]["score"] == "0", grades["a_filler"]
    for name in ("b_right", "c_right"):
        assert grades[name]["status"] == "graded" and float(grades[name]["cumsum"]) > 0, grades[name]
    assert not list(scratch.iterdir()), list(scratch.iterdir())


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


# A worker that met a full disk the grader's watch did not see: a classmate's fallocate can fill
# the last megabytes for a few milliseconds whenever another job makes a file (red team RT20,
# X16), and the worker then exits with DISK_FULL. The first attempt only says so (its HOME is
# in the folder of the job's first attempt; namespaces are off here). The exit is libc's: the
# kit's os._exit at import is an error of the answer's own.
SAYS_FULL_ONCE = '''
import ctypes, os
if "/attempt-0/" in os.environ["HOME"]:
    ctypes.CDLL(None)._exit(75)
'''
SAYS_FULL_ALWAYS = "import ctypes\nctypes.CDLL(None)._exit(75)\n"


def test_a_worker_that_met_a_full_disk_the_watch_missed_runs_again_alone(small_scratch: Path, tmp_path: Path) -> None:
    subs = _class(tmp_path, {"a_met_it": SAYS_FULL_ONCE + RIGHT, "b_says_it": SAYS_FULL_ALWAYS + RIGHT,
                             "c_right": RIGHT})
    out = tmp_path / "out"
    grades = _grade(subs, out, small_scratch, jobs=2)
    assert grades["a_met_it"]["status"] == "graded" and float(grades["a_met_it"]["cumsum"]) > 0, grades["a_met_it"]
    # Saying so every time, alone too, is an answer's own doing: 0, never `ungradable`.
    assert grades["b_says_it"]["status"] == "graded" and grades["b_says_it"]["score"] == "0", grades["b_says_it"]
    assert "ran alone" in (out / "b_says_it.json").read_text()
    assert grades["c_right"]["status"] == "graded" and float(grades["c_right"]["cumsum"]) > 0, grades["c_right"]


def test_a_disk_filled_from_outside_during_a_lone_run_blames_nobody(small_scratch: Path, tmp_path: Path) -> None:
    """Something outside the grader fills the disk while a job runs alone and keeps it full
    after the job's processes end: the job is `ungradable` with that reason, never 0."""
    subs = _class(tmp_path, {"a_right": SAYS_FULL_ONCE + RIGHT})
    out = tmp_path / "out"
    done = threading.Event()

    def fill_at_the_lone_run() -> None:
        while not done.wait(0.01):
            if any(small_scratch.glob("*/job*/attempt-1")):
                with open(small_scratch / "outside", "wb") as f, contextlib.suppress(OSError):
                    while True:
                        f.write(b"\1" * (16 << 20))
                return

    filler = threading.Thread(target=fill_at_the_lone_run, daemon=True)
    filler.start()
    try:
        grades = _grade(subs, out, small_scratch)
    finally:
        done.set()
        filler.join()
        (small_scratch / "outside").unlink(missing_ok=True)
    assert grades["a_right"]["status"] == "ungradable", grades["a_right"]
    # Met by its results (ready), or by its worker's own folders when the fill is quicker.
    reason = grades["a_right"]["reason"]
    assert "something outside the grader fills it" in reason or "before running any answer" in reason, reason


def test_a_scratch_disk_full_at_the_start_up_proof_says_so_in_one_line(small_scratch: Path) -> None:
    """Red team RT21 (Y2a): another grading run's submission filled the shared scratch disk while
    this run made its start-up proof: it died with a traceback, exit 1. The proof is tried again,
    a second apart; then its one line says what to do (`BadSetup`: exit 2)."""
    from checker.engine import _sampling
    from checker.engine._catalog import puzzle_named
    from checker.grading import _grade

    class Pool:  # what the proof reads of the grader's pool: its scratch folder, on the full disk
        scratch = small_scratch

        def run(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("no answer can run: its file could not be written")

    with open(small_scratch / "outside", "wb", buffering=0) as f:
        for chunk in (1 << 20, 4096):  # to the last page
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\1" * chunk)
    draws = {"cumsum": _sampling.draws(puzzle_named("cumsum"), 0)}
    said = _grade._prove(Pool(), "cumsum", draws, {})  # type: ignore[arg-type]
    assert said is not None and "is full" in said and "TMPDIR" in said, said


def test_a_lone_run_beside_another_grading_run_on_its_disk_blames_nobody(small_scratch: Path, tmp_path: Path) -> None:
    """Red team RT21 (Y2, Y10): a job's lone run is alone among its own grader's jobs only. Where
    another grading run's scratch folder is live on the same file system (two shards side by
    side), a worker that met a full disk alone is `ungradable` with that reason, never blamed."""
    import fcntl

    other = small_scratch / "jacpuzzles-grade-other"
    other.mkdir()
    held = os.open(other, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)  # as a live grading run holds its own
    try:
        subs = _class(tmp_path, {"a_met_it": SAYS_FULL_ALWAYS + RIGHT})
        grades = _grade(subs, tmp_path / "out", small_scratch)
    finally:
        os.close(held)
        other.rmdir()
    assert grades["a_met_it"]["status"] == "ungradable", grades["a_met_it"]
    assert "another grading run" in grades["a_met_it"]["reason"], grades["a_met_it"]


def test_a_lone_run_beside_another_grading_run_from_another_tmpdir_blames_nobody(small_scratch: Path,
                                                                                 tmp_path: Path) -> None:
    """Red team RT21 (Y2): the other run's TMPDIR is another folder of the same file system, so
    its scratch folder is not beside this one; its announcement (an abstract unix socket named
    for the file system) is found all the same, and a worker that met a full disk alone is
    `ungradable`, never blamed."""
    ours, theirs = small_scratch / "ours", small_scratch / "theirs"
    for folder in (ours, theirs):
        folder.mkdir(mode=0o711)
    other = subprocess.Popen(  # another grading run, as far as the scratch disk can tell
        [sys.executable, "-c", "import sys, time; from checker.grading import _disk\n"
         "with _disk.scratch_folder() as f:\n    print(f, flush=True); time.sleep(600)"],
        env={**os.environ, "TMPDIR": str(theirs)}, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().startswith(str(theirs))
        subs = _class(tmp_path, {"a_met_it": SAYS_FULL_ALWAYS + RIGHT})
        grades = _grade(subs, tmp_path / "out", ours)
    finally:
        other.kill()
        other.wait()
    assert grades["a_met_it"]["status"] == "ungradable", grades["a_met_it"]
    assert "another grading run" in grades["a_met_it"]["reason"], grades["a_met_it"]


def test_a_scratch_disk_full_when_the_run_starts_is_a_set_up_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team RT21 (Y2a): the grader's own scratch folder could not be made on a disk another
    run's submission filled for a moment: a traceback, exit 1, nothing in OUT. It is tried again
    a second apart, then is one line, exit 2. (A disk full before the run starts is no test of
    it: Python's tempfile then picks another folder.)"""
    from checker.engine._assignment import BadSetup
    from checker.grading import _disk

    tries = []

    def full(*args: object, **kwargs: object) -> str:
        tries.append(1)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_disk.tempfile, "mkdtemp", full)
    monkeypatch.setattr(_disk.time, "sleep", lambda seconds: None)
    with pytest.raises(BadSetup, match="is full.*TMPDIR") as raised, _disk.scratch_folder():
        pass
    assert raised.value.exit_code == 2 and len(tries) == _disk.TRIES


def test_another_run_announced_on_another_device_is_sharing(tmp_path: Path) -> None:
    """Red team RT23: an overlay and the disk beneath it have different device numbers, so two
    runs on one disk announced different ones and neither saw the other. Any other grading run
    announced in this network namespace counts."""
    import socket

    from checker.grading import _disk

    scratch = tmp_path / f"{_disk.SCRATCH_PREFIX}mine"
    scratch.mkdir()
    theirs = f"4242:{_disk.SCRATCH_PREFIX}theirs"
    assert theirs not in _disk.announced(scratch)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as other:
        other.bind(f"\0{_disk.ANNOUNCED}:{theirs}".encode())
        found = _disk.announced(scratch)
        said = _disk.sharing(scratch)
    assert theirs in found and said is not None, (found, said)
    assert theirs not in _disk.announced(scratch)  # gone with its socket


def test_a_scratch_folder_beside_this_one_that_cannot_be_opened_counts_as_live(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team RT23: another user's run (its folder 0711) in a network namespace of its own: its
    lock cannot be tested, and its announcement is not seen. It counts as live."""
    from checker.grading import _disk

    scratch = tmp_path / f"{_disk.SCRATCH_PREFIX}mine"
    theirs = tmp_path / f"{_disk.SCRATCH_PREFIX}theirs"
    scratch.mkdir()
    theirs.mkdir()
    monkeypatch.setattr(_disk, "_elsewhere", lambda scratch: None)
    assert _disk.sharing(scratch) is None  # open, unlocked: a folder a killed run left
    real_open = os.open

    def refused(path: object, *args: object, **kwargs: object) -> int:
        if str(path) == str(theirs):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_disk.os, "open", refused)
    said = _disk.sharing(scratch)
    assert said is not None and str(theirs) in said and "another user's" in said, said


def test_a_results_folder_that_cannot_be_written_is_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team RT23 (e18): another run filled the disk holding `--out`, and the run stopped with
    exit code 1, which `--fail-under` means. The grader could not do its job: 2."""
    from checker.grading import _gradebook

    def full(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_gradebook, "_write_atomic", full)
    with pytest.raises(_gradebook.CannotWrite, match="No space left.*run the same command again") as raised:
        _gradebook.write_atomic(tmp_path / "grades.csv", "x")
    assert raised.value.exit_code == 2


def _always_full(tries: list[int]) -> object:
    def full(*args: object, **kwargs: object) -> None:
        tries.append(1)
        raise OSError(errno.ENOSPC, "No space left on device")

    return full


def test_a_disk_full_while_a_submission_is_copied_is_tried_again_then_exit_2(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team RT26: another run's submission filled the shared disk while this run copied its
    submissions into its scratch folder: a traceback (`mkdir`), or every student `ungradable`
    with "cannot read this submission's files" and exit 0. The copy is made afresh a second
    later; a disk that stays full stops the run with one line, exit 2."""
    from checker.engine._assignment import BadSetup
    from checker.grading import _disk, _grade, _submissions
    from checker.grading._sandbox import Limits

    subs = _class(tmp_path, {"alice": RIGHT})
    submission = _submissions.Submission("alice", subs / "alice")
    monkeypatch.setattr(_disk.time, "sleep", lambda seconds: None)
    locate, tries = _submissions._locate, []

    def full_once(*args: object) -> object:
        tries.append(1)
        if len(tries) == 1:
            (tmp_path / "scratch" / "0" / "half-copied").write_text("")
            raise OSError(errno.ENOSPC, "No space left on device")
        return locate(*args)  # type: ignore[arg-type]

    (tmp_path / "scratch").mkdir()
    monkeypatch.setattr(_submissions, "_locate", full_once)
    plan = _grade._plan(submission, tmp_path / "scratch" / "0", ["cumsum"], {"cumsum": 1}, 0, Limits(10, 0))
    assert plan.answers is not None and not plan.reason and len(tries) == 2, plan
    assert not (tmp_path / "scratch" / "0" / "half-copied").exists()

    tries.clear()
    monkeypatch.setattr(_submissions, "_locate", _always_full(tries))
    with pytest.raises(BadSetup, match="is full: the grader could not copy a submission.*TMPDIR") as raised:
        _grade._plan(submission, tmp_path / "scratch" / "1", ["cumsum"], {"cumsum": 1}, 0, Limits(10, 0))
    assert raised.value.exit_code == 2 and len(tries) == _disk.TRIES


def test_grading_processes_that_cannot_start_on_a_full_disk_are_tried_again_then_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team RT26: the grading processes' files could not be written, or their Python died
    silently (exit status 120) on a disk another run filled: every student `ungradable`, exit 0
    or 1. They are started afresh a second later; a disk that stays full is one line, exit 2. A
    failed start on a disk with room still says its exit status."""
    from checker.engine import _sampling
    from checker.engine._assignment import BadSetup
    from checker.engine._catalog import puzzle_named
    from checker.grading import _disk, _sandbox
    from checker.grading._sandbox import Limits

    monkeypatch.setenv("JACPUZZLES_NO_NAMESPACES", "1")
    monkeypatch.setattr(_disk.time, "sleep", lambda seconds: None)
    draws = {"cumsum": _sampling.draws(puzzle_named("cumsum"), 0)}
    scratch = tmp_path / "scratch"
    scratch.mkdir()

    def start() -> _sandbox.Pool:
        return _disk.retried(lambda: _sandbox.Pool(scratch, draws, Limits(10, 0)), scratch, "could not start")

    share, tries = _sandbox._share_draws, []

    def full_once(*args: object, **kwargs: object) -> object:
        tries.append(1)
        if len(tries) == 1:
            (scratch / "draws.npz").write_bytes(b"half")
            raise OSError(errno.ENOSPC, "No space left on device")
        return share(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_sandbox, "_share_draws", full_once)
    pool = start()
    pool.close()
    assert len(tries) == 2

    monkeypatch.setattr(_sandbox, "_share_draws", share)
    monkeypatch.setattr(_sandbox, "_BOOT", "import sys; sys.exit(120)")
    monkeypatch.setattr(_disk, "below_floor", lambda folder, freed=(0, 0): True)
    with pytest.raises(BadSetup, match="is full: could not start") as raised:
        start()
    assert raised.value.exit_code == 2
    monkeypatch.setattr(_disk, "below_floor", lambda folder, freed=(0, 0): False)
    with pytest.raises(_sandbox.WorkerFailure, match=r"failed to start \(exit status 120\), saying nothing"):
        start()
