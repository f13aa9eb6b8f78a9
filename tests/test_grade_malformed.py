"""Malformed submissions, graded in one `jacpuzzles grade` run beside a normal full-marks and a
normal partial submission: every zip failure, folders nested 1100 deep, a 244-character name, a
2 GB sparse answer, a FIFO, a device, links, two files for one puzzle, names the grader cannot
use. The run must finish; each bad submission is `ungradable` (or its puzzle an `error`) with a
plain reason, each skipped one has its row, and the normal ones are graded right. What the
students receive holds no seed, no grader path, no set-up advice, and no text read as markup.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from checker.grading._submissions import shown
from tests._grading import environ, run_grade
from tests.conftest import REPO, SOLUTIONS

# A class run is one fixture, charged to one test's time: room for a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]  # one grading run of about 30 s

ASSIGNMENT = "[puzzles]\ncumsum = true\nneg = true\nrelu = true\n"
SEED = "987654"  # the course staff's secret: in no file a student receives
LONG = "a" * 244  # `.<name>.json.partial` would not fit a file name
TOO_LONG = "b" * 251  # `<name>.json` cannot fit a file name: skipped


def _ref(name: str) -> bytes:
    return (SOLUTIONS / "autodiff" / f"{name}.py").read_bytes()


def _solved(sub: Path, *names: str) -> Path:
    (sub / "autodiff").mkdir(parents=True, exist_ok=True)
    for name in names or ("cumsum", "neg", "relu"):
        (sub / "autodiff" / f"{name}.py").write_bytes(_ref(name))
    return sub


def _zip_bytes(entries: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _patch_headers(data: bytes, local: dict[int, bytes], central: dict[int, bytes]) -> bytes:
    """Overwrite fields (offset -> bytes) in every local and central header of a zip."""
    out = bytearray(data)
    for signature, fields in ((b"PK\x03\x04", local), (b"PK\x01\x02", central)):
        start = 0
        while (at := out.find(signature, start)) >= 0:
            for offset, value in fields.items():
                out[at + offset:at + offset + len(value)] = value
            start = at + 4
    return bytes(out)


ANSWERS = {"autodiff/cumsum.py": _ref("cumsum"), "autodiff/neg.py": _ref("neg")}


def _encrypted(subs: Path) -> None:
    # Bit 0 of the general-purpose flags: "encrypted" (zipfile then asks for a password).
    data = _zip_bytes(ANSWERS)
    (subs / "encrypted.zip").write_bytes(_patch_headers(data, {6: b"\x01\x00"}, {8: b"\x01\x00"}))


def _unknown_method(subs: Path) -> None:
    data = _zip_bytes(ANSWERS)
    (subs / "unknown_method.zip").write_bytes(_patch_headers(data, {8: b"\x4d\x00"}, {10: b"\x4d\x00"}))


def _bad_utf8_name(subs: Path) -> None:
    # Bit 11: names are UTF-8; one name then holds a byte that is not.
    data = _zip_bytes(ANSWERS).replace(b"autodiff/neg.py", b"autodiff/n\xffg.py")
    (subs / "bad_utf8_name.zip").write_bytes(_patch_headers(data, {6: b"\x00\x08"}, {8: b"\x00\x08"}))


def _bad_crc(subs: Path) -> None:
    data = _zip_bytes(ANSWERS)
    (subs / "bad_crc.zip").write_bytes(_patch_headers(data, {14: b"\0\0\0\0"}, {16: b"\0\0\0\0"}))


def _truncated(subs: Path) -> None:
    data = _zip_bytes(ANSWERS, zipfile.ZIP_DEFLATED)
    (subs / "truncated.zip").write_bytes(data[: len(data) // 2])


def _bomb(subs: Path) -> None:
    (subs / "bomb.zip").write_bytes(
        _zip_bytes({**ANSWERS, "padding.bin": b"\0" * (80 * 1024 * 1024)}, zipfile.ZIP_DEFLATED)
    )


def _deep_zip(subs: Path) -> None:
    (subs / "deep_zip.zip").write_bytes(_zip_bytes({"d/" * 1100 + "autodiff/cumsum.py": _ref("cumsum")}))


def _deep_folder(subs: Path) -> None:
    deep = subs / "deep_folder"
    deep.mkdir()
    for _ in range(1100):  # os.makedirs recurses once per folder
        deep = deep / "d"
        deep.mkdir()
    _solved(deep, "cumsum")


def _sparse(subs: Path) -> None:
    sub = _solved(subs / "sparse", "neg")
    with open(sub / "autodiff" / "cumsum.py", "wb") as f:
        f.write(_ref("cumsum"))
        f.truncate(2 * 1024 ** 3)  # 2 GB, almost all holes


def _fifo(subs: Path) -> None:
    sub = _solved(subs / "fifo", "neg")
    os.mkfifo(sub / "autodiff" / "cumsum.py")


def _device(subs: Path) -> None:
    sub = _solved(subs / "device", "cumsum")
    try:
        os.mknod(sub / "autodiff" / "neg.py", 0o666 | 0o020000, os.makedev(1, 5))  # /dev/zero's
    except (PermissionError, OSError):
        os.mkfifo(sub / "autodiff" / "neg.py")  # no mknod here: still not a regular file


def _linked(subs: Path) -> None:
    sub = _solved(subs / "linked", "neg")
    (sub / "mine.py").write_bytes(_ref("cumsum"))
    (sub / "autodiff" / "cumsum.py").symlink_to("../mine.py")  # inside the submission, still a link


def _dup_at_catalog_path(subs: Path) -> None:
    sub = _solved(subs / "dup_at_catalog_path", "cumsum", "neg")
    (sub / "old").mkdir()
    (sub / "old" / "cumsum.py").write_bytes(_ref("cumsum").replace(b"(Is <= Os)", b"(Is >= Os)"))
    for k in range(40):  # the verdict names five of these, then a count (red team RT26: 24,000 made 6.5 MB)
        (sub / f"z{k:02d}").mkdir()
        (sub / f"z{k:02d}" / "cumsum.py").write_bytes(b"")


def _dup_elsewhere(subs: Path) -> None:
    sub = _solved(subs / "dup_elsewhere", "neg")
    for folder in ("a", "b"):
        (sub / folder).mkdir()
        (sub / folder / "cumsum.py").write_bytes(_ref("cumsum"))


def _partial(subs: Path) -> None:
    sub = _solved(subs / "partial", "relu")
    (sub / "autodiff" / "cumsum.py").write_text("def jac(x):\n    raise ValueError('my file is ' + __file__)\n")
    wrong = (
        _ref("neg")
        .decode()
        .replace("return -1.0 * (Is == Os)", "print('[/] closing [bold]nothing')\n    return 1.0 * (Is == Os)")
    )
    assert wrong != _ref("neg").decode()
    (sub / "autodiff" / "neg.py").write_text(wrong)


def _names(subs: Path) -> None:
    _solved(subs / LONG)
    _solved(subs / "[red]markup")
    (subs / f"{TOO_LONG}.zip").write_bytes(_zip_bytes(ANSWERS))
    _solved(subs / "grades")
    _solved(subs / "bob")
    (subs / "bob.zip").write_bytes(_zip_bytes(ANSWERS))
    _solved(subs / "bell\x07")
    _solved(subs / " right")  # variants are drawn for "right": graded, it would get right's
    _solved(subs / "right ")
    os.mkdir(os.path.join(os.fsencode(subs), b"caf\xe9"))


BUILDERS: list[Callable[[Path], None]] = [
    _encrypted, _unknown_method, _bad_utf8_name, _bad_crc, _truncated, _bomb, _deep_zip, _deep_folder,
    _sparse, _fifo, _device, _linked, _dup_at_catalog_path, _dup_elsewhere, _partial, _names,
]

FULL = {"cumsum": "pass", "neg": "pass", "relu": "pass"}
# Submission -> ("ungradable", reason text) or {puzzle: "status" or "status: text"} (unlisted: todo).
EXPECTED: dict[str, tuple[str, str] | dict[str, str]] = {
    "right": FULL,
    "partial": {"cumsum": "error: ValueError", "neg": "fail", "relu": "pass"},
    "encrypted": ("ungradable", "encrypted.zip is encrypted (password-protected)"),
    "unknown_method": ("ungradable", "unknown_method.zip uses a compression method the grader cannot read"),
    "bad_utf8_name": ("ungradable", "bad_utf8_name.zip has a file name that is not valid UTF-8"),
    "bad_crc": ("ungradable", "bad_crc.zip is damaged (Bad CRC-32"),
    "truncated": ("ungradable", "truncated.zip is damaged"),
    "bomb": ("ungradable", "the zip expands to more than 64 MB"),
    "deep_zip": ("ungradable", "is nested more than 32 folders deep"),
    "deep_folder": ("ungradable", "folders are nested more than 32 deep"),
    "sparse": {"cumsum": "error: autodiff/cumsum.py is 2048.0 MB: answer files are limited to 1 MB", "neg": "pass"},
    "fifo": {"cumsum": "error: autodiff/cumsum.py is not a regular file: not read", "neg": "pass"},
    "device": {"cumsum": "pass", "neg": "error: autodiff/neg.py is not a regular file: not read"},
    "linked": {"cumsum": "error: autodiff/cumsum.py is a symbolic link: not read", "neg": "pass"},
    "dup_at_catalog_path": {"cumsum": "pass: old/cumsum.py, z00/cumsum.py, z01/cumsum.py, z02/cumsum.py, "
                                      "z03/cumsum.py and 36 more, also named cumsum.py, ignored", "neg": "pass"},
    "dup_elsewhere": {"cumsum": "error: two files for cumsum: a/cumsum.py, b/cumsum.py", "neg": "pass"},
    LONG: FULL,
    "[red]markup": FULL,
}
SKIPPED = {
    TOO_LONG: "the name is 251 bytes long",
    "grades": "may not be named 'grades'",
    "bob": "2 entries share this name (bob, bob.zip)",
    "bell\x07": "holds control characters",
    " right": "begins or ends with a space",
    "right ": "begins or ends with a space",
    "caf\udce9": "is not valid UTF-8 text",
}


def _grade(subs: Path, out: Path, assignment: Path) -> subprocess.CompletedProcess[str]:
    return run_grade(
        subs, out=out, assignment=assignment, seed=SEED, timeout=2, jobs=2, wait=400, env=environ(COLUMNS="250")
    )


@pytest.fixture(scope="session")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("malformed")
    subs = root / "subs"
    subs.mkdir()
    _solved(subs / "right")
    for build in BUILDERS:
        build(subs)
    (root / "hw.toml").write_text(ASSIGNMENT)
    out = root / "out"
    result = _grade(subs, out, root / "hw.toml")
    yield {"root": root, "subs": subs, "out": out, "result": result}
    _remove_deep(subs / "deep_folder")  # shutil.rmtree would recurse 1100 deep


def _remove_deep(top: Path) -> None:
    """Remove a chain of nested folders without recursion."""
    chain = [top]
    while True:
        inner = [p for p in chain[-1].iterdir() if p.is_dir() and not p.is_symlink()]
        if not inner:
            break
        chain.append(inner[0])
    for folder in reversed(chain):
        shutil.rmtree(folder)


def test_the_class_is_graded_whatever_some_submissions_are(run: dict[str, Any]) -> None:
    result = run["result"]
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"graded {len(EXPECTED)} submissions" in result.stdout, result.stdout[-3000:]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_submission_is_graded_or_ungradable_with_a_plain_reason(run: dict[str, Any], name: str) -> None:
    doc = json.loads((run["out"] / f"{name}.json").read_text())
    expected = EXPECTED[name]
    if isinstance(expected, tuple):
        assert doc["status"] == "ungradable" and doc["score"] is None, doc
        assert expected[1] in doc["reason"], doc["reason"]
        assert "Traceback" not in doc["reason"]
        return
    assert doc["status"] == "graded", doc.get("reason")
    results = {r["puzzle"]: r for r in doc["results"]}
    for puzzle in ("cumsum", "neg", "relu"):
        status, _, text = expected.get(puzzle, "todo").partition(": ")
        r = results[puzzle]
        seen = "\n".join([r["message"], r["location"] or "", *(f"{d['kind']}: {d['message']}" for d in r["diagnoses"])])
        assert r["status"] == status, f"{name}/{puzzle}: {seen}"
        assert text in seen, f"{name}/{puzzle}: {text!r} not in {seen!r}"
    assert doc["score"] == sum(
        r["max_points"] for p, r in results.items() if expected.get(p, "todo").partition(": ")[0] == "pass"
    )


def test_two_files_for_one_puzzle_is_a_duplicate_never_missing(run: dict[str, Any]) -> None:
    doc = json.loads((run["out"] / "dup_elsewhere.json").read_text())
    cumsum = next(r for r in doc["results"] if r["puzzle"] == "cumsum")
    assert [d["kind"] for d in cumsum["diagnoses"]] == ["duplicate"]
    text = (run["out"] / "dup_at_catalog_path.txt").read_text()
    assert "old/cumsum.py" in text and "ignored" in text


def test_skipped_submissions_have_a_row_and_a_line_in_the_summary(run: dict[str, Any]) -> None:
    rows = {
        r["submission"]: r for r in csv.DictReader(io.StringIO((run["out"] / "grades.csv").read_text(encoding="utf-8")))
    }
    assert list(next(iter(rows.values())))[-2:] == ["status", "reason"]
    for name, why in SKIPPED.items():
        row = rows.get(shown(name))  # a name that is not text is shown escaped: 'caf\udce9'
        assert row is not None, (name, list(rows))
        assert row["status"] == "skipped" and row["score"] == "" and why in row["reason"], row
    assert rows["encrypted"]["status"] == "ungradable" and "encrypted" in rows["encrypted"]["reason"]
    assert rows["right"]["status"] == "graded" and rows["right"]["reason"] == ""
    summary = (run["out"] / "summary.md").read_text(encoding="utf-8", errors="replace")
    assert "## Skipped" in summary and "- `grades`: `" in summary and "- `bob`: `2 entries share this name" in summary
    assert f"; {len(SKIPPED)} skipped." in summary


def test_a_sparse_answer_file_is_not_read_whole(tmp_path: Path) -> None:
    """Reading a submission with a 2 GB sparse answer, in a process that imports only the
    submission reader: its peak memory stays far below the file's size. The peak is the new
    process's own (VmHWM): `ru_maxrss` would carry over the forking test process's peak."""
    subs = tmp_path / "subs"
    subs.mkdir()
    _sparse(subs)
    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from checker.grading import _submissions\n"
        "found, _ = _submissions.discover(Path(sys.argv[1]))\n"
        "result = _submissions.read(found[0], ['cumsum', 'neg'], Path(sys.argv[2]))\n"
        "peak = next(line for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
        "print(type(result).__name__, peak.split()[1])\n"
    )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", program, str(subs), str(scratch)], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    kind, peak_kb = done.stdout.split()
    assert kind == "Answers" and int(peak_kb) < 200_000, done.stdout


def test_the_submissions_folder_is_left_as_it_was(run: dict[str, Any]) -> None:
    assert (run["subs"] / "fifo" / "autodiff" / "cumsum.py").is_fifo()
    assert not list(run["subs"].glob("*.json"))


def test_what_students_receive_holds_no_seed_no_grader_path_and_no_markup_was_eaten(run: dict[str, Any]) -> None:
    out, subs = run["out"], run["subs"]
    for path in sorted(out.iterdir()):
        if path.suffix not in (".txt", ".json") or path.stem.startswith("summary"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        assert SEED not in text, path.name
        assert "jacpuzzles-grade-" not in text and str(subs) not in text and str(out) not in text, path.name
        assert "pip install" not in text, path.name
    partial = (out / "partial.txt").read_text()
    assert "my file is autodiff/cumsum.py" in partial  # the worker's copy named as the student's own file
    assert "[/] closing [bold]nothing" in partial  # printed text, not markup
    assert "[red]markup" in run["result"].stdout  # the name in the table, as it is


def test_journal_of_a_refused_zip_is_kept_and_a_rerun_grades_nothing_new(run: dict[str, Any]) -> None:
    result = _grade(run["subs"], run["out"], run["root"] / "hw.toml")
    assert result.returncode == 0, result.stderr[-3000:]
    # The refused folder (nested too deep) is read again; everything else is journaled.
    assert "graded 1 submission," in result.stdout, result.stdout[-2000:]
