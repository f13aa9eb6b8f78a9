"""Class grading, end to end through a subprocess: a small class of right, wrong, crashing,
hanging, memory-hungry and hostile submissions, its outputs parsed back, a re-run, a `kill -9`.

The class answers five puzzles only (four autodiff, one indexing) to stay fast; the other
puzzles of the catalog are `todo` for every student.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import pytest

from checker import puzzles
from checker.grading._gradebook import junit_xml
from checker.grading._submissions import Submission, Unreadable, read
from tests.conftest import REPO, SOLUTIONS

ANSWERED = {"cumsum": "autodiff", "neg": "autodiff", "relu": "autodiff", "prod": "autodiff", "naive_lookup": "indexing"}
POINTS = {p.name: p.points for p in puzzles()}
FULL = sum(POINTS[n] for n in ANSWERED)
LIMITS = ("--timeout", "2", "--memory-mb", "1024", "--jobs", "2")
FORGE = (
    r'print("\x1b[2J\x1b[3J\x1b[Hforge: 5/5 points\n pass: 3  fail: 0\x1b]52;c;ZXZpbA==\x07\r\x08\x9b\x1b[8m", end="")'
    "\n"
)


def grade(submissions: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(submissions), "--out", str(out), *LIMITS, *extra],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )


def _solved(folder: Path) -> Path:
    """A submission with the five reference answers, laid out as in the repository."""
    for name, chapter in ANSWERED.items():
        (folder / chapter).mkdir(parents=True, exist_ok=True)
        shutil.copy(SOLUTIONS / chapter / f"{name}.py", folder / chapter / f"{name}.py")
    return folder


def _answer(folder: Path, name: str, body: str) -> None:
    (folder / ANSWERED[name] / f"{name}.py").write_text(body)


def build_class(root: Path) -> Path:
    """The class: one submission per way a submission goes right or wrong."""
    subs = root / "submissions"
    subs.mkdir()
    _solved(subs / "right")
    wrong = _solved(subs / "wrong")
    # Wrong, and printing a forgery: when an instructor `cat`s the
    # feedback, clear the screen, draw a fake full-marks report, hide the real one.
    transposed = (REPO / "tests" / "corpus" / "autodiff" / "cumsum" / "upper_triangle.py").read_text()
    _answer(wrong, "cumsum", FORGE + transposed)
    noisy = "print('\\udcff\\x00\\x1b[31m<&' * 3000)\n"  # right, but prints what XML and UTF-8 cannot hold
    _answer(wrong, "neg", noisy + (SOLUTIONS / "autodiff" / "neg.py").read_text())
    exits = _solved(subs / "exits")
    _answer(exits, "neg", "import os\nos._exit(3)\n")
    _answer(exits, "relu", "import posix\nposix._exit(3)\n")  # the real exit, past the runner's guard
    hangs = _solved(subs / "hangs")
    _answer(hangs, "relu", "while True:\n    pass\n")
    _answer(hangs, "cumsum", "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass\n")
    hungry = _solved(subs / "hungry")
    _answer(hungry, "prod", "import numpy\nhoard = numpy.ones(512 * 1024 * 1024)  # 4 GB\n")
    linked = _solved(subs / "linked")
    (linked / "autodiff" / "neg.py").unlink()
    (root / "outside.py").write_text((SOLUTIONS / "autodiff" / "neg.py").read_text())
    (linked / "autodiff" / "neg.py").symlink_to(root / "outside.py")
    zipped = _solved(root / "zipped")
    _answer(
        zipped,
        "neg",
        "import jax.numpy as jnp\n\ndef jac(x):\n    return -jnp.eye(10, dtype=jnp.bfloat16)  # exact in bfloat16\n",
    )
    with zipfile.ZipFile(subs / "zipped.zip", "w") as archive:
        for path in sorted(zipped.rglob("*.py")):
            archive.write(path, path.relative_to(zipped).as_posix())
    with zipfile.ZipFile(subs / "evil.zip", "w") as archive:
        archive.writestr("autodiff/cumsum.py", (SOLUTIONS / "autodiff" / "cumsum.py").read_text())
        archive.writestr("../evil.py", "print('escaped')\n")
    return subs


def test_zip_entries_with_absolute_paths_are_refused(tmp_path: Path) -> None:
    archive = tmp_path / "abs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("/etc/cumsum.py", "x = 1\n")
    found = read(Submission("abs", archive), ["cumsum"], tmp_path / "scratch")
    assert isinstance(found, Unreadable) and "'/etc/cumsum.py' has an absolute path" in found.reason
    assert not (tmp_path / "scratch").exists()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The class graded once, uninterrupted, with how long it took."""
    root = tmp_path_factory.mktemp("class")
    subs = build_class(root)
    before = _snapshot(subs)
    start = time.monotonic()
    result = grade(subs, root / "out")
    return {
        "root": root,
        "subs": subs,
        "out": root / "out",
        "result": result,
        "seconds": time.monotonic() - start,
        "before": before,
    }


def _doc(graded: dict[str, Any], name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((graded["out"] / f"{name}.json").read_text())
    return doc


def _result(graded: dict[str, Any], name: str, puzzle: str) -> dict[str, Any]:
    return next(r for r in _doc(graded, name)["results"] if r["puzzle"] == puzzle)


def test_grading_completes_with_exit_0_whatever_the_students_scored(graded: dict[str, Any]) -> None:
    result = graded["result"]
    assert result.returncode == 0, result.stderr
    assert "graded 8 submissions, 0 unchanged" in result.stdout
    assert graded["seconds"] < 100


def test_a_right_submission_gets_full_marks_folder_or_zip(graded: dict[str, Any]) -> None:
    for name in ("right", "zipped"):
        doc = _doc(graded, name)
        assert doc["submission"] == name and doc["status"] == "graded"
        assert doc["score"] == FULL and doc["max_score"] == sum(POINTS.values())
        assert {r["puzzle"]: r["status"] for r in doc["results"] if r["puzzle"] in ANSWERED} == dict.fromkeys(
            ANSWERED, "pass"
        )
        assert _result(graded, name, "cumsum")["path"] == "autodiff/cumsum.py"  # relative to the submission


def test_a_wrong_answer_fails_with_its_diagnosis(graded: dict[str, Any]) -> None:
    cumsum = _result(graded, "wrong", "cumsum")
    # Kept (undecodable bytes as themselves), control characters shown as their escapes
    assert _result(graded, "wrong", "neg")["output"].startswith("\udcff\\x00\\x1b[31m<&")
    assert cumsum["status"] == "fail" and cumsum["points"] == 0
    assert cumsum["diagnoses"][0]["kind"] == "transposed"
    assert _doc(graded, "wrong")["score"] == FULL - POINTS["cumsum"]


def test_exits_cost_only_their_puzzle(graded: dict[str, Any]) -> None:
    neg, relu = _result(graded, "exits", "neg"), _result(graded, "exits", "relu")
    assert neg["status"] == "error" and "os._exit(3) was called" in neg["message"]
    assert relu["status"] == "error" and "exited with status 3" in relu["message"]
    assert "graded in a fresh process" in relu["message"]
    assert _doc(graded, "exits")["score"] == FULL - POINTS["neg"] - POINTS["relu"]


def test_hangs_cost_only_their_puzzle_even_ignoring_the_alarm(graded: dict[str, Any]) -> None:
    relu, cumsum = _result(graded, "hangs", "relu"), _result(graded, "hangs", "cumsum")
    assert relu["status"] == "error" and relu["diagnoses"][0]["kind"] == "timeout"
    assert "did not finish within 2 s" in relu["message"]
    assert cumsum["status"] == "error" and cumsum["diagnoses"][0]["kind"] == "timeout"
    assert cumsum["message"].startswith("exceeded the 2 s time limit")
    assert _doc(graded, "hangs")["score"] == FULL - POINTS["relu"] - POINTS["cumsum"]


def test_memory_blowup_costs_only_its_puzzle(graded: dict[str, Any]) -> None:
    prod = _result(graded, "hungry", "prod")
    assert prod["status"] == "error" and prod["message"].startswith("exceeded the 1024 MB memory limit")
    assert _doc(graded, "hungry")["score"] == FULL - POINTS["prod"]


def test_a_symlink_out_of_the_submission_is_not_followed(graded: dict[str, Any]) -> None:
    neg = _result(graded, "linked", "neg")
    assert neg["status"] == "error" and "autodiff/neg.py is a symbolic link: not read" in neg["message"]
    assert _doc(graded, "linked")["score"] == FULL - POINTS["neg"]


def test_a_zip_escaping_its_folder_is_ungradable_not_zero(graded: dict[str, Any]) -> None:
    doc = _doc(graded, "evil")
    assert doc["status"] == "ungradable" and doc["score"] is None
    assert "'../evil.py'" in doc["reason"] and "refused" in doc["reason"]
    assert not (graded["root"] / "evil.py").exists() and not (graded["subs"] / "evil.py").exists()


def test_the_submissions_folder_is_never_modified(graded: dict[str, Any]) -> None:
    assert _snapshot(graded["subs"]) == graded["before"]


def test_grades_csv_has_one_row_per_submission_and_one_column_per_puzzle(graded: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO((graded["out"] / "grades.csv").read_text())))
    assert list(rows[0]) == ["submission", "score", "max_score", *POINTS, "status", "reason"]
    by_name = {r["submission"]: r for r in rows}
    assert sorted(by_name) == ["evil", "exits", "hangs", "hungry", "linked", "right", "wrong", "zipped"]
    assert by_name["right"]["score"] == str(FULL) and by_name["right"]["cumsum"] == str(POINTS["cumsum"])
    assert by_name["wrong"]["cumsum"] == "0" and by_name["wrong"]["neg"] == str(POINTS["neg"])
    assert by_name["evil"]["score"] == "" and by_name["evil"]["status"] == "ungradable"


def test_junit_xml_parses_back_one_suite_per_submission(graded: dict[str, Any]) -> None:
    suites = ET.parse(graded["out"] / "junit.xml").getroot()
    by_name = {s.get("name"): s for s in suites.iter("testsuite")}
    assert len(by_name) == 8
    right = by_name["right"]
    assert len(right.findall("testcase")) == len(POINTS)
    assert right.find("testcase[@name='cumsum']/failure") is None
    failure = by_name["wrong"].find("testcase[@name='cumsum']/failure")
    assert failure is not None and failure.get("type") == "transposed"
    assert by_name["evil"].find("testcase[@name='ungradable']/error") is not None
    printed = by_name["wrong"].find("testcase[@name='neg']/system-out")
    assert printed is not None and printed.text is not None and printed.text.startswith("\ufffd\\x00\\x1b[31m<&")


def test_junit_xml_holds_any_output_well_formed() -> None:
    doc = {
        "submission": "x",
        "status": "graded",
        "score": 0,
        "max_score": 1,
        "results": [
            {
                "puzzle": "neg",
                "status": "error",
                "message": "bad \x00\x1b[31m\udcff",
                "diagnoses": [{"kind": "exception", "message": "\x07"}],
                "output": "\x01" * 100_000,
            }
        ],
    }
    case = ET.fromstring(junit_xml([doc]).split("\n", 1)[1]).find("testsuite/testcase")
    assert case is not None and case.find("error") is not None
    out = case.find("system-out")
    assert out is not None and out.text is not None and len(out.text) < 9000


def test_summary_counts_pass_rates_and_diagnoses(graded: dict[str, Any]) -> None:
    summary = json.loads((graded["out"] / "summary.json").read_text())
    assert summary["submissions"] == 8 and summary["graded"] == 7
    assert [u["submission"] for u in summary["ungradable"]] == ["evil"]
    cumsum = summary["puzzles"]["cumsum"]
    assert cumsum["pass_rate"] == round(5 / 7, 4)
    assert cumsum["diagnoses"]["transposed"] == 1
    assert summary["scores"]["max"] == FULL
    markdown = (graded["out"] / "summary.md").read_text()
    assert "| cumsum | 71% | " in markdown and "14% transposed" in markdown


def test_feedback_text_is_the_plain_report(graded: dict[str, Any]) -> None:
    text = (graded["out"] / "wrong.txt").read_text()
    assert text.startswith(f"wrong: {FULL - POINTS['cumsum']}/{sum(POINTS.values())} points")
    assert "✘ cumsum: FAIL" in text and "\x1b[" not in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_escapes_an_answer_printed_are_shown_not_obeyed_in_every_output(graded: dict[str, Any]) -> None:
    """No control character an answer printed reaches a file of OUT or the
    grader's console as itself (JSON's escapes of them neither); each is shown as its escape."""
    for path in sorted(graded["out"].iterdir()):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert not any(c in text for c in "\x1b\x07\x08\r\x00\x9b"), path.name
            assert "\\u001b" not in text and "\\u0007" not in text, path.name
    assert "\x1b" not in graded["result"].stdout + graded["result"].stderr
    text = (graded["out"] / "wrong.txt").read_text()
    assert (
        "\\x1b[2J\\x1b[3J\\x1b[Hforge: 5/5 points" in text and "\\x1b]52;c;ZXZpbA==\\x07\\x0d\\x08\\x9b\\x1b[8m" in text
    )


def test_a_rerun_grades_nothing_and_rewrites_the_same_files(graded: dict[str, Any]) -> None:
    before = _snapshot(graded["out"])
    again = grade(graded["subs"], graded["out"])
    assert again.returncode == 0, again.stderr
    assert "graded 0 submissions, 8 unchanged" in again.stdout
    assert _snapshot(graded["out"]) == before


def _workers_in(folder: Path) -> list[int]:
    """Processes whose working directory is inside `folder` (the grader's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if Path(os.readlink(entry / "cwd")).is_relative_to(folder):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _default_signals() -> None:
    """The grader starts as from a terminal: pytest may run with SIGINT ignored, and under `nohup`
    with SIGHUP ignored, which the grader then leaves ignored as `nohup` asks."""
    for how in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(how, signal.SIG_DFL)


def _interrupted(
    graded: dict[str, Any], out: Path, how: signal.Signals, tmp: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Start grading the class into `out` (its scratch folder in `tmp`, when given), send `how`
    once a first submission is journaled."""
    grader = subprocess.Popen(
        [sys.executable, "-m", "checker", "grade", str(graded["subs"]), "--out", str(out), *LIMITS],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "400", **({"TMPDIR": str(tmp)} if tmp is not None else {})},
        preexec_fn=_default_signals,
    )
    deadline = time.monotonic() + 120
    while not any(p.suffix == ".json" and p.stem != "evil" for p in out.glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    grader.send_signal(how)
    stdout, stderr = grader.communicate(timeout=60)
    assert not (out / "grades.csv").exists(), "the grader finished before it was interrupted"
    time.sleep(1)
    assert _workers_in(graded["subs"]) == [], "workers outlived the grader"
    return subprocess.CompletedProcess(grader.args, grader.returncode, stdout, stderr)


def _with_the_class_key(graded: dict[str, Any], out: Path) -> Path:
    """`out`, holding the uninterrupted run's key: entries are signed alike, so files compare equal."""
    out.mkdir()
    shutil.copy(graded["out"] / ".jacpuzzles-key", out / ".jacpuzzles-key")
    return out


@pytest.mark.slow
def test_kill_9_then_rerun_ends_with_the_files_of_an_uninterrupted_run(graded: dict[str, Any], tmp_path: Path) -> None:
    out = _with_the_class_key(graded, tmp_path / "out")
    _interrupted(graded, out, signal.SIGKILL)
    again = grade(graded["subs"], out)
    assert again.returncode == 0, again.stderr
    assert _snapshot(out) == _snapshot(graded["out"])


@pytest.mark.slow
def test_ctrl_c_keeps_what_was_graded_and_says_how_to_finish(graded: dict[str, Any], tmp_path: Path) -> None:
    out = _with_the_class_key(graded, tmp_path / "out")
    stopped = _interrupted(graded, out, signal.SIGINT)
    assert stopped.returncode == 130
    assert (
        "the submissions graded so far are kept" in stopped.stderr
        and "run the same command to finish" in stopped.stderr
    )
    kept = {p.stem for p in out.glob("*.json")}
    again = grade(graded["subs"], out)
    assert again.returncode == 0, again.stderr
    assert f"{len(kept)} unchanged" in again.stdout
    assert _snapshot(out) == _snapshot(graded["out"])


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_to_stop_ends_grading_as_ctrl_c_does_and_leaves_no_scratch(
    graded: dict[str, Any], tmp_path: Path, how: signal.Signals
) -> None:
    """A SIGTERM (a CI job's timeout, `docker stop`) or a SIGHUP (a closed terminal) leaves no
    scratch folder (the draws of the secret seed, the students' answers) and no job mounts
    behind."""
    out, tmp = tmp_path / "out", tmp_path / "tmp"
    tmp.mkdir()
    # The class, and a submission whose every answer runs to the time limit: the signal comes
    # while it is still to be graded, however fast the rest of the class goes.
    subs = tmp_path / "subs"
    shutil.copytree(graded["subs"], subs, symlinks=True)
    slow = _solved(subs / "zz-slow")
    for name in ANSWERED:
        _answer(slow, name, "while True:\n    pass\n")
    stopped = _interrupted({**graded, "subs": subs}, out, how, tmp)
    assert stopped.returncode == 130, stopped.stderr[-2000:]
    assert (
        "interrupted (Ctrl-C or a signal to stop)" in stopped.stderr
        and "run the same command to finish" in stopped.stderr
    )
    assert list(tmp.iterdir()) == []
    assert str(tmp) not in Path("/proc/mounts").read_text()


@pytest.mark.parametrize("case", ["missing", "inside", "unwritable"])
def test_bad_arguments_exit_2_with_a_message(case: str, tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (tmp_path / "file").write_text("")
    target = {
        "missing": (tmp_path / "nope", tmp_path / "out"),
        "inside": (subs, subs / "out"),
        "unwritable": (subs, tmp_path / "file"),
    }[case]
    result = grade(*target)
    assert result.returncode == 2
    assert {
        "missing": "does not exist",
        "inside": "inside the submissions folder",
        "unwritable": "cannot write grades",
    }[case] in result.stderr


def test_a_submission_named_like_a_class_wide_file_is_refused_not_overwritten(tmp_path: Path) -> None:
    from checker.grading._submissions import discover

    (tmp_path / "summary").mkdir()
    (tmp_path / "alice").mkdir()
    found, clashes = discover(tmp_path)
    assert [s.name for s in found] == ["alice"]
    assert len(clashes) == 1 and "may not be named 'summary'" in clashes[0].reason and "rename it" in clashes[0].reason


def test_summary_and_feedback_counts_agree_with_their_nouns() -> None:
    # Not "1 of 1 submissions graded", "0/1 points" in the class summary and feedback.
    from checker.grading._gradebook import summary_markdown

    one = {
        "submissions": 1, "graded": 1, "ungradable": [], "max_score": 1, "puzzles": {},
        "scores": {"mean": 1.0, "median": 1.0, "min": 1, "max": 1, "distribution": {"1": 1}},
    }
    assert "1 of 1 submission graded; 0 ungradable." in summary_markdown(one)
    assert "1 of 2 submissions graded" in summary_markdown({**one, "submissions": 2})


@pytest.mark.slow
def test_a_worker_killed_from_outside_is_graded_again_not_given_0(tmp_path: Path) -> None:
    """In a container, the kernel's memory killer takes whichever worker is largest when a
    classmate's processes fill the container (red team, round 7): a right answer whose worker is
    SIGKILLed by none of the grader's limits is run once more in a fresh worker. The test is that
    killer here: it SIGKILLs the first worker that names itself, once."""
    subs = tmp_path / "subs"
    right = _solved(subs / "right")
    name = f"outkill{os.getpid() % 10**6}"
    reference = (SOLUTIONS / "autodiff" / "cumsum.py").read_text()
    _answer(right, "cumsum", "import ctypes\nimport time\n\n"
                             f"ctypes.CDLL(None).prctl(15, b'{name}', 0, 0, 0)  # PR_SET_NAME\ntime.sleep(3)\n"
                             + reference)
    grader = subprocess.Popen(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(tmp_path / "out"), "--timeout", "10",
         "--jobs", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
        stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "200"},
    )
    killed = []
    deadline = time.monotonic() + 200
    while not killed and grader.poll() is None and time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == name:
                    os.kill(int(entry), signal.SIGKILL)
                    killed.append(int(entry))
                    break
            except (OSError, ValueError):
                continue
        time.sleep(0.05)
    stdout, stderr = grader.communicate(timeout=300)
    assert killed, "the answer's worker was never seen"
    doc = json.loads((tmp_path / "out" / "right.json").read_text())
    assert doc["score"] == FULL, (doc["results"], stderr[-2000:])
