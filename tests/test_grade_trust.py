"""What the grader trusts: only what it wrote itself. The seed stays off every command line; its
scratch files are the grader's alone; OUT's entries carry its signature, and a resumed run or
`--merge` refuses one it did not sign; the copy of a submission a worker runs holds the bytes read
from the submission, whatever an earlier worker wrote into the grader's copies."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from checker.engine._assignment import BadSetup, read_seed_file
from checker.grading import _journal
from checker.grading._submissions import Answers, Submission, read
from tests.conftest import REPO, SOLUTIONS


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


# ---- the seed -------------------------------------------------------------------------------


def test_a_seed_file_is_read_and_a_readable_one_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "seed"
    path.write_text("918273\n")
    path.chmod(0o600)
    assert read_seed_file(path) == (918273, "")
    path.chmod(0o644)
    seed, warning = read_seed_file(path)
    assert seed == 918273
    assert "can be read by other users of this machine (mode 0644)" in warning and f"chmod 600 {path}" in warning


@pytest.mark.parametrize("text", ["", "12ab", "-3", "1.5"])
def test_a_seed_file_that_is_not_a_whole_number_is_refused_with_what_to_write(tmp_path: Path, text: str) -> None:
    path = tmp_path / "seed"
    path.write_text(text)
    with pytest.raises(BadSetup, match="not a whole number 0 or more: write the seed as digits only"):
        read_seed_file(path)


# ---- scratch files ----------------------------------------------------------------------------


def test_the_graders_copies_of_answers_are_its_own(tmp_path: Path) -> None:
    sub = tmp_path / "ada" / "deep" / "autodiff"
    sub.mkdir(parents=True)
    shutil.copy(SOLUTIONS / "autodiff" / "neg.py", sub / "neg.py")
    scratch = tmp_path / "scratch"
    scratch.mkdir(mode=0o700)
    answers = read(Submission("ada", tmp_path / "ada"), ["neg"], scratch)
    assert isinstance(answers, Answers)
    copy = scratch / "deep" / "autodiff" / "neg.py"
    assert [_mode(scratch / "deep"), _mode(scratch / "deep" / "autodiff"), _mode(copy)] == [0o700, 0o700, 0o600]
    assert answers.sums == {"deep/autodiff/neg.py": __import__("hashlib").sha256(copy.read_bytes()).hexdigest()}


def test_the_draws_and_config_shared_with_the_zygote_are_0600(tmp_path: Path) -> None:
    from checker.engine import _sampling
    from checker.engine._catalog import puzzle_named
    from checker.grading._sandbox import _SHARED, Limits, _share_draws

    _share_draws(tmp_path, {"neg": _sampling.draws(puzzle_named("neg"), 5)}, Limits(2, 0), ())
    assert {name: _mode(tmp_path / name) for name in _SHARED} == dict.fromkeys(_SHARED, 0o600)


def test_a_workers_copy_is_refused_when_the_graders_copy_changed(tmp_path: Path) -> None:
    from checker.grading._sandbox import CopyChanged, _private_copy

    root = tmp_path / "copy"
    (root / "autodiff").mkdir(parents=True)
    (root / "autodiff" / "neg.py").write_bytes(b"original\n")
    sums = {"autodiff/neg.py": __import__("hashlib").sha256(b"original\n").hexdigest()}
    code = _private_copy(root, ["autodiff/neg.py"], tmp_path / "job1", None, sums)
    assert (code / "autodiff" / "neg.py").read_bytes() == b"original\n"
    assert [_mode(code), _mode(code / "autodiff"), _mode(code / "autodiff" / "neg.py")] == [0o700, 0o700, 0o600]
    (root / "autodiff" / "neg.py").write_bytes(b"import jax  # rewritten by another submission\n")
    with pytest.raises(
        CopyChanged, match="the grader's copy of autodiff/neg.py changed after it was read from the submission"
    ):
        _private_copy(root, ["autodiff/neg.py"], tmp_path / "job2", None, sums)


# ---- the journal's signature ------------------------------------------------------------------


def test_the_class_key_is_made_once_0600_and_signs_entry_and_feedback(tmp_path: Path) -> None:
    key = _journal.key(tmp_path)
    assert key.made and _mode(tmp_path / _journal.KEY_NAME) == 0o600
    again = _journal.key(tmp_path)
    assert not again.made and again.secret == key.secret
    doc = key.sign({"submission": "ada", "score": 3, "results": [{"puzzle": "neg", "points": 1.5}]}, b"feedback")
    assert again.verifies(doc, b"feedback")
    assert not again.verifies({**doc, "score": 4}, b"feedback")
    assert not again.verifies(doc, b"other feedback")
    (tmp_path / "other").mkdir()
    assert not _journal.key(tmp_path / "other").verifies(doc, b"feedback")  # another class's key


def test_the_digests_a_student_receives_take_the_seed_keyed_by_the_class_secret(tmp_path: Path) -> None:
    # Red team RT32 found a secret seed of 11 by grading with seeds 0, 1, 2... until the `key` of
    # its own .json came out the same: the seed now enters `key` and `setup` only keyed.
    from checker.grading import _grade, _submissions

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mine, other = _journal.key(tmp_path / "a"), _journal.key(tmp_path / "b")
    assert mine.sealed(11) == _journal.key(tmp_path / "a").sealed(11)  # a resumed run finds its entries
    assert len({mine.sealed(11), mine.sealed(12), other.sealed(11)}) == 3
    submission = tmp_path / "ada"
    (submission / "autodiff").mkdir(parents=True)
    (submission / "autodiff" / "neg.py").write_text("def jac(x):\n    return -x\n")
    limits = _grade.Limits(timeout=5.0, memory_mb=512)
    plans = [_grade._plan(_submissions.Submission("ada", submission), tmp_path / f"s{k}", ["neg"], {"neg": 1},
                          key.sealed(11), limits) for k, key in enumerate((mine, other))]
    assert plans[0].key != plans[1].key and plans[0].setup != plans[1].setup


def test_a_key_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("0" * 64)
    (tmp_path / _journal.KEY_NAME).symlink_to(tmp_path / "real")
    with pytest.raises(_journal.KeyProblem, match="a link is never followed"):
        _journal.key(tmp_path)


def _signed_entry(out: Path, key: _journal.Key, name: str, score: int) -> dict[str, Any]:
    doc = key.sign({"submission": name, "status": "graded", "score": score, "key": "k1", "results": []}, b"text\n")
    (out / f"{name}.txt").write_bytes(b"text\n")
    (out / f"{name}.json").write_text(json.dumps(doc))
    return doc


def test_a_resumed_run_takes_a_signed_entry_and_says_why_it_refuses_a_rewritten_one(tmp_path: Path) -> None:
    from checker.grading import _grade

    key = _journal.key(tmp_path)
    doc = _signed_entry(tmp_path, key, "ada", 3)
    plan = _grade.Plan("ada", "k1", None)
    assert _grade._resumed(tmp_path, plan, key) == (doc, "")
    (tmp_path / "ada.json").write_text(json.dumps({**doc, "score": 0}))  # a classmate's worker, as the grader's user
    found, why = _grade._resumed(tmp_path, plan, key)
    assert found is None and "its signature does not check with the key" in why
    _signed_entry(tmp_path, key, "ada", 3)
    (tmp_path / "ada.txt").write_bytes(b"You copied: 0 points\n")
    assert _grade._resumed(tmp_path, plan, key)[0] is None


# ---- end to end (slow): a hostile submission in the class --------------------------------------

# Runs first (`jobs 1`, names in order): at import, it rewrites every answer file it can reach
# under the grader's scratch folder with one that calls jax.jacfwd, and prints every command
# line it can read; then answers cumsum rightly.
ATTACKER = """
import glob, os, re
_found, _rewritten = [], []
for path in glob.glob("@SCRATCH@/**/*.py", recursive=True):
    _found.append(path)
    try:
        with open(path) as f:
            if "_rewritten" in f.read():
                continue  # its own copy
        with open(path, "a") as f:
            f.write("\\nimport jax\\ndef jac(x):\\n    return jax." + "jac" + "fwd(cumsum)(x)\\n")
        _rewritten.append(path)
    except OSError:
        pass
_lines = []
try:
    _pids = os.listdir("/proc")
except OSError:  # Landlock: no /proc but its own
    _pids = []
for pid in _pids:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            _lines.append(f.read().replace(b"\\0", b" ").decode(errors="replace"))
    except OSError:
        pass
_mine = [l for l in _lines if "@SUBS@" in l]
_seen = any(re.search(r"\\b@SEED@\\b", l) for l in _lines)
print("found", len(_found), "rewrote", len(_rewritten), "seed seen" if _seen else "seed not seen",
      "grader:", " | ".join(_mine))
"""
SEED = 60417093


def _class(root: Path, scratch: Path) -> Path:
    subs = root / "subs"
    for name in ("a_attacker", "b_victim", "c_victim"):
        (subs / name / "autodiff").mkdir(parents=True)
        for puzzle in ("cumsum", "neg"):
            shutil.copy(SOLUTIONS / "autodiff" / f"{puzzle}.py", subs / name / "autodiff" / f"{puzzle}.py")
    answer = subs / "a_attacker" / "autodiff" / "cumsum.py"
    attack = ATTACKER.replace("@SCRATCH@", str(scratch)).replace("@SUBS@", str(subs)).replace("@SEED@", str(SEED))
    answer.write_text(answer.read_text() + attack)
    return subs


# Workers as the grader's own user, as a plain user's grader runs them (no uid of their own, no
# namespaces): what a worker can write, any worker can.
SAME_UID = (
    "import sys; from checker.grading import _sandbox; _sandbox._uid_block = lambda: None; from "
    "checker.cli._cli import entry; sys.argv[0] = 'jacpuzzles'; entry()"
)


def _grade(
    subs: Path, out: Path, scratch: Path, *extra: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(env or {})
    boot = ["-c", SAME_UID] if env.pop("same_uid", "") else ["-m", "checker"]
    trust = ["--trust-submissions"] if env.pop("trust", "") else []
    return subprocess.run(
        [sys.executable, *boot, "grade", str(subs), "--out", str(out), "--assignment", str(subs.parent / "hw.toml"),
         "--timeout", "3", "--memory-mb", "1024", "--jobs", "1", *trust, *map(str, extra)],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=400,
        env={**os.environ, "COLUMNS": "200", "TMPDIR": str(scratch), **env},
    )


CONFIGURATIONS = [
    pytest.param({}, id="default"),
    pytest.param({"JACPUZZLES_NO_NAMESPACES": "1"}, id="no-namespaces"),
    # Nothing confines the workers (no namespaces, no Landlock, the grader's own uid): only the
    # grader's own checks (the copies' digests, the seed off the command line) protect the class.
    pytest.param(
        {"JACPUZZLES_NO_NAMESPACES": "1", "JACPUZZLES_NO_LANDLOCK": "1", "same_uid": "1", "trust": "1"}, id="unconfined"
    ),
]


@pytest.fixture()
def scratch() -> Any:
    """Where the grader makes its scratch folder: reachable by workers of other uids (as root),
    unlike pytest's 0700 folders."""
    folder = Path(tempfile.mkdtemp(prefix="jacpuzzles-trust-"))
    folder.chmod(0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("env", CONFIGURATIONS)
def test_a_submission_cannot_rewrite_a_later_ones_copy_nor_read_the_seed_nor_forge_out(
    tmp_path: Path, scratch: Path, env: dict[str, str]
) -> None:
    tmp_path.chmod(0o755)
    subs = _class(tmp_path, scratch)
    (tmp_path / "hw.toml").write_text("[puzzles]\ncumsum = true\nneg = true\n")  # no seed here: the seed file gives it
    (tmp_path / "seed").write_text(f"{SEED}\n")
    (tmp_path / "seed").chmod(0o600)
    out = tmp_path / "out"
    result = _grade(subs, out, scratch, "--seed-file", tmp_path / "seed", env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "warning" not in result.stderr.replace("--trust-submissions", "")
    docs = {name: json.loads((out / f"{name}.json").read_text()) for name in ("a_attacker", "b_victim", "c_victim")}
    printed = next(r for r in docs["a_attacker"]["results"] if r["puzzle"] == "cumsum")["output"]
    assert "grader:" in printed  # it ran
    if "same_uid" in env:  # unconfined: the attack reached what it aimed at
        assert "rewrote 0" not in printed  # it did rewrite the grader's copies of the others' answers
        assert "--seed-file" in printed  # it read the grader's command line
    assert "seed not seen" in printed
    for victim in ("b_victim", "c_victim"):
        assert docs[victim]["score"] == docs[victim]["max_score"], (victim, docs[victim], printed)
    assert sorted(os.listdir(scratch)) == []  # nothing of the grader's left behind
    if not env:
        _a_rewritten_entry_is_graded_again(subs, out, scratch, docs["b_victim"])


def _a_rewritten_entry_is_graded_again(subs: Path, out: Path, scratch: Path, entry: dict[str, Any]) -> None:
    """A classmate's entry rewritten (as a worker running as the grader's user could): the next
    run does not trust it, grades it again, and the class-wide files never show the forgery."""
    (out / "b_victim.json").write_text(json.dumps({**entry, "score": 0}))
    again = _grade(subs, out, scratch, "--seed-file", subs.parent / "seed")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "not trusted b_victim.json" in again.stderr and "its signature does not check" in again.stderr
    assert "graded 1 submission, 2 unchanged" in again.stdout
    rows = list(csv.reader(io.StringIO((out / "grades.csv").read_text())))
    assert next(r for r in rows if r[0] == "b_victim")[1] == str(entry["max_score"])
    assert json.loads((out / "b_victim.json").read_text()) == entry


@pytest.mark.parametrize("denied", ["stat", "listing"])
def test_a_submissions_folder_the_grader_cannot_read_is_one_line_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, denied: str) -> None:
    # As a plain user, a folder of another user's (mode 0700) raised PermissionError from
    # `is_dir` (Python 3.11) before any message: found while testing a plain user's grading.
    from checker.grading import _grade
    from checker.grading._sandbox import Limits

    (tmp_path / "subs").mkdir()

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "is_dir", refuse) if denied == "stat" else monkeypatch.setattr(os, "scandir", refuse)
    with pytest.raises(BadSetup, match="cannot read the submissions folder .*Permission denied; grade as a user"):
        _grade._check_setup(tmp_path / "subs", tmp_path / "out", 1, Limits(timeout=5, memory_mb=0))
