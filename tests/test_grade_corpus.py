"""The grading corpus: every broken or hostile submission in tests/grading_corpus/, graded in one
`jacpuzzles grade` run, each against what a fair instructor expects (manifest.toml).

Beyond each puzzle's status and message: the submissions' other puzzles are still graded, the
class-wide files parse, nothing outlives the grader, and nothing reaches the grader's OUT.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from checker import puzzles
from tests.conftest import PUZZLES, REPO, SOLUTIONS

# A class run is one fixture, charged to one test's time: room for a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]  # one grading run of about 60 s

CORPUS = REPO / "tests" / "grading_corpus"
MANIFEST: dict[str, dict[str, Any]] = tomllib.loads((CORPUS / "manifest.toml").read_text())
_LISTED = tomllib.loads((CORPUS / "assignment.toml").read_text())["puzzles"]
ASSIGNED = [p.name for p in puzzles() if p.name in _LISTED]  # catalog order, whatever the file's
CHAPTER = {"cumsum": "autodiff", "neg": "autodiff", "relu": "autodiff"}


def _reference(name: str) -> bytes:
    return (SOLUTIONS / CHAPTER[name] / f"{name}.py").read_bytes()


def _non_utf8(sub: Path, tmp: Path) -> None:
    text = _reference("cumsum").decode().replace("a running total", "a running total, café")
    (sub / "autodiff").mkdir(parents=True)
    (sub / "autodiff" / "cumsum.py").write_bytes(text.encode("latin-1"))


def _symlink(sub: Path, tmp: Path) -> None:
    (sub / "autodiff").mkdir(parents=True)
    (sub / "autodiff" / "cumsum.py").symlink_to("/etc/passwd")


def _zip_dotdot(sub: Path, tmp: Path) -> None:
    with zipfile.ZipFile(sub.with_suffix(".zip"), "w") as archive:
        archive.writestr("autodiff/cumsum.py", _reference("cumsum"))
        archive.writestr("../evil.py", "print('escaped')\n")


def _zip_bomb(sub: Path, tmp: Path) -> None:
    with zipfile.ZipFile(sub.with_suffix(".zip"), "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("autodiff/cumsum.py", _reference("cumsum"))
        archive.writestr("padding.bin", b"\0" * (200 * 1024 * 1024))


def _zipped(sub: Path, tmp: Path) -> None:
    with zipfile.ZipFile(sub.with_suffix(".zip"), "w") as archive:
        for name in ASSIGNED:
            archive.writestr(f"{CHAPTER[name]}/{name}.py", _reference(name))


def _empty(sub: Path, tmp: Path) -> None:
    sub.mkdir()


def _untouched(sub: Path, tmp: Path) -> None:
    (sub / "autodiff").mkdir(parents=True)
    shutil.copy(PUZZLES / "autodiff" / "cumsum.py", sub / "autodiff" / "cumsum.py")


def _huge(sub: Path, tmp: Path) -> None:
    (sub / "autodiff").mkdir(parents=True)
    padding = ("# " + "x" * 98 + "\n") * (3 * 1024 * 1024 // 100)
    (sub / "autodiff" / "cumsum.py").write_bytes(_reference("cumsum") + padding.encode())


def _conftest(sub: Path, tmp: Path) -> None:
    # Made here, not kept in the repository: pytest itself would load it while collecting tests/.
    sub.mkdir()
    (sub / "conftest.py").write_text('raise SystemExit("a conftest.py in a submission must never run")\n')


def _writes_out(sub: Path, tmp: Path) -> None:
    shutil.copytree(CORPUS / "zz_writes_out", sub)


BUILDERS: dict[str, Callable[[Path, Path], None]] = {
    "non_utf8": _non_utf8, "symlink": _symlink, "zip_dotdot": _zip_dotdot, "zip_bomb": _zip_bomb, "zipped": _zipped,
    "empty": _empty, "conftest": _conftest, "untouched": _untouched, "huge": _huge, "writes_out": _writes_out,
}


def _placeholders(out: Path, tmp: Path, subs: Path) -> dict[bytes, bytes]:
    from checker.engine._oracles import cache_dir

    cache = cache_dir()
    return {
        b"@OUT@": str(out).encode(),
        b"@TMP@": str(tmp).encode(),
        b"@KIT@": str(REPO).encode(),
        b"@SUBS@": str(subs).encode(),
        b"@CACHE@": str(cache if cache is not None else "/nonexistent").encode(),
    }


def build_corpus(root: Path, out: Path, tmp: Path) -> Path:
    """The submissions folder: each manifest entry, with its copies, placeholders filled in."""
    subs = root / "submissions"
    subs.mkdir()
    for name, entry in MANIFEST.items():
        sub = subs / name
        if "build" in entry:
            BUILDERS[entry["build"]](sub, tmp)
        elif (CORPUS / name).is_dir():
            shutil.copytree(CORPUS / name, sub, symlinks=True)
        else:
            sub.mkdir()  # reference answers only (`copy`)
        if sub.is_dir():
            for puzzle in entry.get("copy", []):
                (sub / CHAPTER[puzzle]).mkdir(parents=True, exist_ok=True)
                (sub / CHAPTER[puzzle] / f"{puzzle}.py").write_bytes(_reference(puzzle))
            for path in sub.rglob("*.py"):
                if not path.is_symlink() and b"@" in (text := path.read_bytes()):
                    for placeholder, value in _placeholders(out, tmp, subs).items():
                        text = text.replace(placeholder, value)
                    path.write_bytes(text)
    return subs


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("corpus")
    out = root / "out"
    # Where the `escapes_session` answer leaves its pid: writable by every user, since a worker
    # runs as a uid of its own when the tests run as root.
    tmp = Path(tempfile.mkdtemp(prefix="jacpuzzles-corpus-"))
    tmp.chmod(0o1777)
    subs = build_corpus(root, out, tmp)
    before = _tmp_leftovers()
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment",
         str(CORPUS / "assignment.toml"), "--timeout", "2", "--memory-mb", "1024", "--jobs", "2"],
        # Finishing at all is what is tested: a wide limit, for a busy machine (no timing here).
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=1200,
        env={**os.environ, "COLUMNS": "200", SECRET_NAME: SECRET},
    )
    seconds = time.monotonic() - start
    time.sleep(0.5)  # let the last worker's tree be reaped
    return {"root": root, "out": out, "tmp": tmp, "result": result, "seconds": seconds, "leftovers_before": before}


# In the grader's environment for the corpus run: must never reach a worker, so never OUT.
SECRET_NAME, SECRET = "GRADER_SECRET_TOKEN", "corpus-secret-7d41c09e"


def test_the_graders_environment_never_reaches_a_worker_nor_out(corpus: dict[str, Any]) -> None:
    printed = [r for r in _doc(corpus, "prints_environ")["results"] if r["puzzle"] == "cumsum"][0]
    assert "PATH" in printed["output"]  # it did print its environment
    for path in corpus["out"].rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert SECRET.encode() not in data and SECRET_NAME.encode() not in data, path


def _tmp_leftovers() -> set[str]:
    """The files named leftover-* in the host's /tmp, /var/tmp and /dev/shm."""
    return {
        os.path.join(d, n)
        for d in ("/tmp", "/var/tmp", "/dev/shm")
        if os.path.isdir(d)
        for n in os.listdir(d)
        if n.startswith("leftover-")
    }


def _doc(corpus: dict[str, Any], name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((corpus["out"] / f"{name}.json").read_text())
    return doc


def test_the_corpus_has_at_least_30_kinds_and_grades_in_one_run(corpus: dict[str, Any]) -> None:
    assert len(MANIFEST) >= 30
    result = corpus["result"]
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"graded {len(MANIFEST)} submissions" in result.stdout


def _cases() -> list[Any]:
    """One case per submission; a strict xfail where the manifest says the grader falls short."""
    marks = {
        n: pytest.mark.xfail(reason=e["xfail"], strict=e.get("xfail_strict", True))
        for n, e in MANIFEST.items()
        if "xfail" in e
    }
    return [pytest.param(n, marks=marks[n]) if n in marks else n for n in sorted(MANIFEST)]


@pytest.mark.parametrize("name", _cases())
def test_each_submission_gets_what_a_fair_instructor_expects(corpus: dict[str, Any], name: str) -> None:
    entry = MANIFEST[name]
    if entry.get("isolated") and "isolation: namespaces" not in corpus["result"].stderr:
        pytest.skip("workers are not isolated here (docs/grading.md, 'What protection remains')")
    doc = _doc(corpus, name)
    if "ungradable" in entry:
        assert doc["status"] == "ungradable" and doc["score"] is None
        assert entry["ungradable"] in doc["reason"]
        return
    assert doc["status"] == "graded", doc.get("reason")
    results = {r["puzzle"]: r for r in doc["results"]}
    assert list(results) == ASSIGNED  # the assignment's puzzles only, every one of them graded
    for puzzle in ASSIGNED:
        status, _, text = entry.get(puzzle, "todo").partition(": ")
        r = results[puzzle]
        seen = "\n".join([r["message"], r["location"] or "", *(f"{d['kind']}: {d['message']}" for d in r["diagnoses"])])
        assert r["status"] == status, f"{name}/{puzzle}: {r['status']}: {seen}"
        assert text in seen, f"{name}/{puzzle}: {text!r} not in {seen!r}"
    expected_score = sum(
        results[p]["max_points"] for p in ASSIGNED if entry.get(p, "todo").partition(": ")[0] == "pass"
    )
    assert doc["score"] == expected_score


def test_grades_csv_and_junit_xml_parse_with_the_assignments_columns(corpus: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO((corpus["out"] / "grades.csv").read_text())))
    assert list(rows[0]) == ["submission", "score", "max_score", *ASSIGNED, "status", "reason"]
    assert sorted(r["submission"] for r in rows) == sorted(MANIFEST)
    suites = ET.parse(corpus["out"] / "junit.xml").getroot().findall("testsuite")
    assert sorted(s.get("name") or "" for s in suites) == sorted(MANIFEST)
    flood = next(s for s in suites if s.get("name") == "output_flood").find("testcase[@name='cumsum']/system-out")
    assert flood is not None and flood.text is not None and 0 < len(flood.text) <= 9000
    summary = json.loads((corpus["out"] / "summary.json").read_text())
    assert list(summary["puzzles"]) == ASSIGNED


def _environ_has(pid: int, entry: bytes) -> bool:
    try:
        return entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def _leftovers() -> list[int]:
    """Processes of the host that a submission started: `sleep 617`, or any with a worker's uid."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            uid = os.stat(f"/proc/{entry}").st_uid
            zombie = Path(f"/proc/{entry}/stat").read_text().split(") ")[1].startswith("Z")
        except (OSError, IndexError):
            continue
        if not zombie and (cmdline == b"sleep\x00617\x00" or 620000 <= uid < 620000 + 4000 * 1_000_000):
            found.append(int(entry))
    return found


def test_no_process_of_a_submission_outlives_grading(corpus: dict[str, Any]) -> None:
    deadline = time.monotonic() + 5
    while _leftovers() and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _leftovers()
    for pid in left:
        os.kill(pid, 9)
    assert not left, f"processes {left} outlived grading"


def test_a_process_started_in_its_own_session_does_not_outlive_grading(corpus: dict[str, Any]) -> None:
    if not (corpus["tmp"] / "sleeper.pid").exists():
        assert "isolation: namespaces" in corpus["result"].stderr  # its own /tmp: see the test above
        return
    pid = int((corpus["tmp"] / "sleeper.pid").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        # A zombie is gone in all but name: only its parent's wait is missing.
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                return
        except (OSError, IndexError):
            return
        time.sleep(0.2)
    os.kill(pid, 9)
    pytest.fail(f"the submission's `sleep 600` (pid {pid}) outlived grading")


def test_a_submission_cannot_forge_another_ones_entry_or_plant_files_in_out(corpus: dict[str, Any]) -> None:
    if os.geteuid() != 0 or "no uid of their own" in corpus["result"].stderr:
        pytest.xfail(
            "workers run as the grader's user and can write OUT (docs/grading.md, 'Without root, the same user')"
        )
    assert not (corpus["out"] / "planted.txt").exists()
    victim = _doc(corpus, "victim")
    assert victim["score"] == sum(r["max_points"] for r in victim["results"])
    output = next(r for r in _doc(corpus, "zz_writes_out")["results"] if r["puzzle"] == "cumsum")["output"]
    assert "could not forge" in output and "could not plant" in output


def test_nothing_a_worker_wrote_is_quoted_from_where_its_links_lead(corpus: dict[str, Any]) -> None:
    text = (corpus["out"] / "swaps_results.json").read_text() + (corpus["out"] / "swaps_results.txt").read_text()
    assert "root:" not in text and "/etc/shadow" not in text


def test_the_grader_says_which_isolation_is_in_force(corpus: dict[str, Any]) -> None:
    lines = [line for line in corpus["result"].stderr.splitlines() if line.startswith("isolation:")]
    assert len(lines) == 1, corpus["result"].stderr[-2000:]
    if os.geteuid() == 0:
        assert "namespaces (mount, pid, network, IPC, UTS)" in lines[0]


def test_files_a_worker_left_in_tmp_are_gone_after_grading(corpus: dict[str, Any]) -> None:
    if "isolation: namespaces" not in corpus["result"].stderr:
        pytest.skip("workers share the host's /tmp here")
    assert not _tmp_leftovers() - corpus["leftovers_before"]


def test_a_fork_bomb_meets_the_process_limit(corpus: dict[str, Any]) -> None:
    if "isolation: namespaces" not in corpus["result"].stderr:
        pytest.skip("no process limit without a uid of its own (docs/grading.md)")
    output = next(r for r in _doc(corpus, "fork_bomb")["results"] if r["puzzle"] == "cumsum")["output"]
    assert "limit reached after" in output, output[:300]



def test_the_memory_limit_covers_the_submissions_whole_tree(tmp_path: Path) -> None:
    """Three processes of 700 MB each, each under the per-process limit, together over the
    submission's (a run of its own: the kernel takes seconds to reclaim and choose a victim)."""
    subs = tmp_path / "submissions"
    shutil.copytree(CORPUS / "tree_memory", subs / "tree_memory")
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(tmp_path / "out"), "--assignment",
         str(CORPUS / "assignment.toml"), "--timeout", "15", "--memory-mb", "1024"],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )
    if os.geteuid() != 0 or not os.access("/sys/fs/cgroup/memory", os.W_OK):
        pytest.skip("no cgroup memory controller here: the limit is per process (docs/grading.md)")
    assert "memory limit over its whole tree" in result.stderr, result.stderr[-2000:]
    doc = json.loads((tmp_path / "out" / "tree_memory.json").read_text())
    cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
    assert cumsum["status"] == "pass", cumsum["message"]
    assert "children that got 700 MB:" in cumsum["output"] and "700 MB: 3" not in cumsum["output"], cumsum["output"][
        :300
    ]


def test_a_timeout_after_the_trees_memory_limit_killed_names_the_memory_limit(tmp_path: Path) -> None:
    """Children of the answer killed by the tree's memory limit while the answer waits for them
    the puzzle's error names the memory limit, not the time limit it then ran into."""
    if os.geteuid() != 0 or not os.access("/sys/fs/cgroup/memory", os.W_OK):
        pytest.skip("no cgroup memory controller here: the limit is per process (docs/grading.md)")
    subs = tmp_path / "submissions"
    shutil.copytree(CORPUS / "tree_memory_waits", subs / "tree_memory_waits")
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(tmp_path / "out"), "--assignment",
         str(CORPUS / "assignment.toml"), "--timeout", "5", "--memory-mb", "1024"],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert "memory limit over its whole tree" in result.stderr, result.stderr[-2000:]
    doc = json.loads((tmp_path / "out" / "tree_memory_waits.json").read_text())
    cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
    assert cumsum["status"] == "error" and "exceeded the 1024 MB memory limit" in cumsum["message"], cumsum["message"]


def test_a_kit_the_workers_cannot_read_stops_grading_before_anyone_with_one_line(tmp_path: Path) -> None:
    """The kit installed where the workers' uid cannot read it (its package folder 0700): the
    start-up proof fails, the grader says why and what to do, exit 2, and no one is graded."""
    if os.geteuid() != 0:
        pytest.skip("workers run as the grader's user: they read what it reads")
    kit = tmp_path / "kit"
    shutil.copytree(REPO / "checker", kit / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "solutions", kit / "solutions", ignore=shutil.ignore_patterns("__pycache__"))
    (kit / "checker").chmod(0o700)
    subs = tmp_path / "submissions"
    shutil.copytree(CORPUS / "forged_status", subs / "someone")
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment",
         str(CORPUS / "assignment.toml")],
        capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "PYTHONPATH": str(kit), "COLUMNS": "1000"},
    )
    assert result.returncode == 2, result.stderr[-2000:]
    line = next(line for line in result.stderr.splitlines() if "cannot run answers on this machine" in line)
    assert "readable by every user" in line and "Permission denied" in line, line
    assert not list(out.glob("*.json")) and not list(out.glob("*.txt"))


def test_without_namespaces_the_grader_says_so_and_still_grades_right(tmp_path: Path) -> None:
    """As in a container that refuses namespaces: one line says what is missing, a forged
    record still cannot score, a right answer still passes, and nothing outlives grading."""
    subs = tmp_path / "submissions"
    shutil.copytree(CORPUS / "forged_status", subs / "forger")
    (subs / "right" / "autodiff").mkdir(parents=True)
    (subs / "right" / "autodiff" / "cumsum.py").write_bytes(_reference("cumsum"))
    # Standard-library modules the zygote never loaded import as well (workers run as a uid of
    # their own only where that uid can read Python's folders).
    (subs / "imports" / "autodiff").mkdir(parents=True)
    (subs / "imports" / "autodiff" / "cumsum.py").write_bytes(
        b"import encodings.idna, fractions, statistics, zoneinfo\n" + _reference("cumsum")
    )
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "checker", "grade", str(subs), "--out", str(out), "--assignment",
         str(CORPUS / "assignment.toml"), "--timeout", "5"],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "COLUMNS": "1000", "JACPUZZLES_NO_NAMESPACES": "1"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    line = next(line for line in result.stderr.splitlines() if line.startswith("isolation:"))
    assert (
        line.startswith("isolation: Landlock ABI")
        and "missing: no namespaces (turned off by JACPUZZLES_NO_NAMESPACES)" in line
    ), line
    forger = json.loads((out / "forger.json").read_text())
    assert forger["score"] == 0 and {r["status"] for r in forger["results"] if r["puzzle"] == "cumsum"} == {"error"}
    for name in ("right", "imports"):
        doc = json.loads((out / f"{name}.json").read_text())
        assert [r["status"] for r in doc["results"] if r["puzzle"] == "cumsum"] == ["pass"], doc
    # Only this run's processes: other tests' graders may run beside it (pytest-xdist), and only
    # this one's workers carry JACPUZZLES_NO_NAMESPACES in their environment.
    assert not [pid for pid in _leftovers() if _environ_has(pid, b"JACPUZZLES_NO_NAMESPACES=1")]
