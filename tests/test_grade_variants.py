"""Grading with variants on: each student graded on their own variant, the roster,
the workspace record's flag, the integrity report, and the CI front-ends finding the student.

A tiny class on three puzzles (cumsum, mean, relu), graded once through the command line:

- ana (roster id s-ana): her own variant's reference answers (the templates of tests/variants/);
- ben: his own reference answers, in a workspace whose record names another student;
- cy: ana's answers (his variants differ from hers on every puzzle);
- dee: the published reference answers (solutions/).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from checker.engine import _stubs, _variants
from checker.engine._assignment import Assignment, load
from checker.frontends import _autograde
from checker.grading import _submissions
from tests._grading import environ, run_grade
from tests.conftest import REPO, SOLUTIONS

PUZZLES = ("cumsum", "mean", "relu")
SEED = 4021
HERE = Path(__file__).parent / "variants"


def _chosen(student: str) -> dict[str, Any]:
    return {n: _variants.choose(SEED, student, n) for n in PUZZLES}


def _ids() -> tuple[str, str, str, str]:
    """Student ids such that cy's variant differs from ana's on every puzzle (found, not assumed:
    the catalog's choices may grow)."""
    pool = [f"s-{k}" for k in range(200)]
    ana = "s-ana"
    cy = next(s for s in pool if all(_chosen(s)[n] != _chosen(ana)[n] for n in PUZZLES))
    return ana, "s-ben", cy, "s-dee"


ANA, BEN, CY, DEE = _ids()


def _reference(puzzle_name: str, student: str) -> str:
    """The student's variant's reference answer file, as a learner's file has it."""
    puzzle = _variants.assigned(SEED, student, puzzle_name)
    body = _variants.fill(puzzle, (HERE / puzzle.chapter / f"{puzzle.name}.py").read_text())
    return _stubs.header(puzzle) + _stubs.MARKER + "\n" + body


def _write(folder: Path, answers: dict[str, str]) -> Path:
    for name, text in answers.items():
        path = folder / "autodiff" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def _assignment(root: Path, digest_note: str = "") -> Path:
    path = root / "assignment.toml"
    path.write_text(
        f"seed = {SEED}\nvariants = true\ntimeout = 5\n\n[puzzles]\n" + "".join(f"{n} = true\n" for n in PUZZLES)
        + f'\n[students]\nana = "{ANA}"\nben = "{BEN}"\ncy = "{CY}"\ndee = "{DEE}"\n'
    )
    return path


def _record(folder: Path, student: str, digest: str) -> None:
    (folder / ".jacpuzzles").mkdir(parents=True, exist_ok=True)
    (folder / ".jacpuzzles" / "workspace.toml").write_text(
        f'version = 1\n\n[assignment]\nstudent = "{student}"\nseed = {SEED}\ndigest = "{digest}"\nvariants = true\n')


def grade(submissions: Path, out: Path, assignment: Path) -> subprocess.CompletedProcess[str]:
    return run_grade(submissions, out=out, assignment=assignment, jobs=2, wait=600, env=environ(COLUMNS="200"))


def _gradescope(root: Path, assignment: Path) -> subprocess.CompletedProcess[str]:
    return run_grade(
        gradescope=True, gradescope_root=root, assignment=assignment, timeout=5, wait=300, env=environ(COLUMNS="200")
    )


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("variants")
    assignment = _assignment(root)
    digest = load(assignment).digest
    subs = root / "submissions"
    _write(subs / "ana", {n: _reference(n, ANA) for n in PUZZLES})
    ben = _write(subs / "ben", {n: _reference(n, BEN) for n in PUZZLES})
    _record(ben, "s-somebody-else", digest)
    _write(subs / "cy", {n: _reference(n, ANA) for n in PUZZLES})
    _write(subs / "dee", {n: (SOLUTIONS / "autodiff" / f"{n}.py").read_text() for n in PUZZLES})
    out = root / "out"
    result = grade(subs, out, assignment)
    docs = (
        {name: json.loads((out / f"{name}.json").read_text()) for name in ("ana", "ben", "cy", "dee")}
        if result.returncode == 0
        else {}
    )
    return {"result": result, "out": out, "docs": docs, "subs": subs, "assignment": assignment, "root": root}


def _statuses(doc: dict[str, Any]) -> dict[str, str]:
    return {r["puzzle"]: r["status"] for r in doc["results"]}


def test_the_class_is_graded(graded: dict[str, Any]) -> None:
    assert graded["result"].returncode == 0, graded["result"].stderr[-3000:]


def test_each_student_is_graded_on_their_own_variant(graded: dict[str, Any]) -> None:
    docs = graded["docs"]
    assert _statuses(docs["ana"]) == dict.fromkeys(PUZZLES, "pass")
    assert _statuses(docs["ben"]) == dict.fromkeys(PUZZLES, "pass")
    assert docs["ana"]["score"] == docs["ana"]["max_score"] > 0
    # A classmate's answers, written for other variants, fail; so do the published answers.
    assert all(s != "pass" for s in _statuses(docs["cy"]).values()), docs["cy"]
    assert all(s != "pass" for s in _statuses(docs["dee"]).values()), docs["dee"]
    assert docs["cy"]["score"] == 0 and docs["dee"]["score"] == 0


def test_the_roster_maps_a_submission_to_its_student_and_the_result_names_the_variant(graded: dict[str, Any]) -> None:
    docs, out = graded["docs"], graded["out"]
    assert docs["ana"]["student"] == ANA and docs["cy"]["student"] == CY
    for name in PUZZLES:
        assert docs["ana"]["variants"][name] == _variants.label(_variants.assigned(SEED, ANA, name))
    text = (out / "ana.txt").read_text()
    assert f"student {ANA}: each puzzle was graded on your own variant" in text
    assert f"  cumsum: {_variants.label(_variants.assigned(SEED, ANA, 'cumsum'))}" in text
    rows = list(csv.reader(io.StringIO((out / "grades.csv").read_text())))
    assert rows[0][:4] == ["submission", "student", "score", "max_score"]
    assert any(row[:2] == ["ana", ANA] for row in rows)


def test_a_workspace_record_for_another_student_is_flagged_without_changing_the_score(graded: dict[str, Any]) -> None:
    docs, out = graded["docs"], graded["out"]
    assert "s-somebody-else" in docs["ben"]["flag"] and docs["ben"]["score"] == docs["ben"]["max_score"]
    assert "flag" not in docs["ana"]
    assert "s-somebody-else" in (out / "ben.txt").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert [f["submission"] for f in summary["flagged"]] == ["ben"]
    assert "Workspace records that do not match" in (out / "summary.md").read_text()


def test_the_integrity_report_names_the_source_of_copied_answers(graded: dict[str, Any]) -> None:
    out = graded["out"]
    report = json.loads((out / "integrity.json").read_text())
    pairs = {
        (a["submission"], o["submission"]): set()
        for a in report["fits_another_variant"]
        for f in a["puzzles"]
        for o in f["sources"]
    }
    for a in report["fits_another_variant"]:
        for f in a["puzzles"]:
            for o in f["sources"]:
                pairs[(a["submission"], o["submission"])].add(f["puzzle"])
    assert pairs.get(("cy", "ana")) == set(PUZZLES), report
    assert all(
        o["same_file"]
        for a in report["fits_another_variant"]
        if a["submission"] == "cy"
        for f in a["puzzles"]
        for o in f["sources"]
        if o["submission"] == "ana"
    )
    published = {p["submission"]: {f["puzzle"] for f in p["puzzles"]} for p in report["fits_published_puzzle"]}
    assert published.get("dee") == set(PUZZLES)
    assert "ana" not in published and not any(a in ("ana", "ben") for a, _ in pairs)
    text = (out / "integrity.md").read_text()
    assert "not a verdict" in text and "cy" in text
    for word in ("cheat", "guilty", "plagiari"):
        assert word not in text.lower()


def test_grading_again_gives_the_same_files(graded: dict[str, Any]) -> None:
    again = graded["root"] / "again"
    again.mkdir()
    shutil.copy(graded["out"] / ".jacpuzzles-key", again / ".jacpuzzles-key")  # the class's key: entries signed alike
    result = grade(graded["subs"], again, graded["assignment"])
    assert result.returncode == 0, result.stderr[-2000:]
    for name in ("ana.json", "ana.txt", "cy.json", "grades.csv", "summary.json", "integrity.json", "integrity.md"):
        assert (again / name).read_text() == (graded["out"] / name).read_text(), name


# ---- the workspace record, read as hostile data ----


def _answers(tmp_path: Path, make: Any) -> _submissions.Answers:
    folder = tmp_path / "sub"
    _write(folder, {"cumsum": "def jac(x):\n    return x\n"})
    make(folder)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    found = _submissions.read(_submissions.Submission("sub", folder), ["cumsum"], scratch)
    assert isinstance(found, _submissions.Answers)
    return found




@pytest.mark.parametrize(
    "make, problem",
    [
        (
            lambda f: (
                (f / ".jacpuzzles").mkdir() or (f / ".jacpuzzles" / "workspace.toml").write_bytes(b"\xff\xfe\x00binary")
            ),
            "not a readable TOML",
        ),
        (
            lambda f: (
                (f / ".jacpuzzles").mkdir() or (f / ".jacpuzzles" / "workspace.toml").write_text("x = 1\n" * 20000)
            ),
            "is over",
        ),
        (
            lambda f: (f / ".jacpuzzles").mkdir() or (f / ".jacpuzzles" / "workspace.toml").symlink_to("/etc/passwd"),
            "symbolic link",
        ),
        (
            lambda f: (f / ".jacpuzzles").mkdir() or os.mkfifo(f / ".jacpuzzles" / "workspace.toml"),
            "not a regular file",
        ),
        (
            lambda f: (f / ".jacpuzzles" / "workspace.toml").mkdir(parents=True),
            "not a regular file",
        ),  # a folder: unreadable, the answers still read
        (
            lambda f: (
                (f / ".jacpuzzles").mkdir()
                or (f / ".jacpuzzles" / "workspace.toml").write_text("[assignment]\nstudent = 3\n")
            ),
            "no student id",
        ),
    ],
)
def test_a_bad_workspace_record_is_only_unreadable(tmp_path: Path, make: Any, problem: str) -> None:
    found = _answers(tmp_path, make)
    assert found.record is not None and problem in found.record.problem and found.record.student is None
    assert found.files == {"cumsum": "autodiff/cumsum.py"}


def test_a_workspace_record_in_a_zip_is_read(tmp_path: Path) -> None:
    path = tmp_path / "zed.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("work/autodiff/cumsum.py", "def jac(x):\n    return x\n")
        z.writestr("work/.jacpuzzles/workspace.toml", '[assignment]\nstudent = "s-9"\ndigest = "abc"\n')
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    found = _submissions.read(_submissions.Submission("zed", path), ["cumsum"], scratch)
    assert isinstance(found, _submissions.Answers) and found.record is not None
    assert (found.record.student, found.record.digest, found.record.problem) == ("s-9", "abc", "")


def test_an_ordinary_workspace_record_claims_nothing(tmp_path: Path) -> None:
    found = _answers(
        tmp_path,
        lambda f: (f / ".jacpuzzles").mkdir() or (f / ".jacpuzzles" / "workspace.toml").write_text("version = 1\n"),
    )
    assert found.record is not None and found.record.student is None and not found.record.problem


# ---- the CI front-ends find the student ----


def test_gradescope_finds_the_student_in_the_submission_metadata(tmp_path: Path) -> None:
    meta = {
        "id": 123456,
        "users": [{"email": "ada@example.edu", "id": 1234, "name": "Ada"}],
        "submission_method": "upload",
    }
    (tmp_path / "submission_metadata.json").write_text(json.dumps(meta))
    assert _autograde.gradescope_student(tmp_path) == "ada@example.edu"
    meta["users"] = [{"id": 1234, "name": "Ada"}]
    (tmp_path / "submission_metadata.json").write_text(json.dumps(meta))
    assert _autograde.gradescope_student(tmp_path) == "1234"
    (tmp_path / "submission_metadata.json").write_text("{not json")
    assert _autograde.gradescope_student(tmp_path) is None
    (tmp_path / "submission_metadata.json").unlink()
    assert _autograde.gradescope_student(tmp_path) is None


def test_github_classroom_finds_the_login_in_the_repository_name() -> None:
    roster = Assignment((("cumsum", 1),), seed=SEED, variants=True, students=(("ada-l", "s-1"), ("bob", "s-2")))
    env = {"GITHUB_REPOSITORY": "course-org/hw-1-jacobians-ada-l", "GITHUB_ACTOR": "ada-l"}
    assert _autograde.classroom_student(env, roster) == "ada-l"
    # The instructor pushes to the student's repository: the roster tells the login.
    assert _autograde.classroom_student({**env, "GITHUB_ACTOR": "prof-x"}, roster) == "ada-l"
    assert (
        _autograde.classroom_student(
            {"GITHUB_REPOSITORY": "org/hw-1-carol", "GITHUB_ACTOR": "github-classroom[bot]"}, roster
        )
        is None
    )
    assert _autograde.classroom_student({"GITHUB_ACTOR": "carol"}) == "carol"
    assert roster.student_id(_autograde.classroom_student(env, roster) or "") == "s-1"


def test_gradescope_with_variants_grades_the_metadatas_student(tmp_path: Path) -> None:
    root = tmp_path / "autograder"
    student = "ada@example.edu"
    _write(root / "submission", {"cumsum": _reference("cumsum", student)})
    (root / "submission_metadata.json").write_text(json.dumps({"users": [{"email": student, "id": 7}]}))
    assignment = tmp_path / "a.toml"
    assignment.write_text(f"seed = {SEED}\nvariants = true\n\n[puzzles]\ncumsum = true\n")
    result = _gradescope(root, assignment)
    assert result.returncode == 0, result.stderr[-2000:] + result.stdout[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    assert [t["status"] for t in results["tests"]] == ["passed"]
    assert f"grading the variants of student {student}" in result.stdout


# ---- the integrity report, from evidence ----


def _entry(
    name: str,
    slot: str,
    status: str = "fail",
    fits: list[str] | None = None,
    wrong: dict[str, str] | None = None,
    file: str = "f",
) -> dict[str, Any]:
    from checker.grading import _evidence

    return _evidence.entry(name, "k", f"id-{name}", {"cumsum": slot}, {"cumsum": slot}, {"cumsum": status},
                           {"cumsum": fits} if fits else {}, {"cumsum": wrong} if wrong else {}, {"cumsum": file})


def test_identical_wrong_jacobians_on_the_same_variant_are_weak_evidence_only() -> None:
    from checker.grading import _evidence

    entries = [
        _entry("a", "cumsum@1", wrong={"cumsum@1": "d1", "cumsum@2": "d9"}),
        _entry("b", "cumsum@1", wrong={"cumsum@1": "d1"}, file="g"),
        _entry("c", "cumsum@2", wrong={"cumsum@2": "d9"}),  # same digest as a's, but on c's draws, not a's own
        _entry("d", "cumsum@1", status="pass", file="h"),
    ]
    found = _evidence.report(entries)
    assert [(c["puzzle"], c["submissions"]) for c in found["identical_wrong_jacobians"]] == [("cumsum", ["a", "b"])]
    assert found["fits_another_variant"] == [] and found["fits_published_puzzle"] == []
    assert "weak evidence" in _evidence.markdown(found)


def test_the_same_answer_file_for_the_same_variant_is_weak_evidence() -> None:
    from checker.grading import _evidence

    entries = [_entry("a", "cumsum@1", status="pass", file="same"), _entry("b", "cumsum@1", status="pass", file="same"),
               _entry("c", "cumsum@2", status="pass", file="same"), _entry("d", "cumsum", status="pass", file="same")]
    found = _evidence.report(entries)
    assert [(c["puzzle"], c["submissions"]) for c in found["identical_answer_files"]] == [("cumsum", ["a", "b"])]


def test_an_answer_fitting_another_variant_is_listed_under_its_author_with_identical_files_first() -> None:
    from checker.grading import _evidence

    entries = [
        _entry("copier", "cumsum@1", fits=["cumsum@2"], file="same"),
        _entry("x", "cumsum@2", status="pass", file="other"),
        _entry("source", "cumsum@2", status="pass", file="same"),
        _entry("finder", "cumsum@3", fits=["cumsum"]),
    ]
    found = _evidence.report(entries, stubs={})
    listed = [
        (a["submission"], [[(o["submission"], o["same_file"]) for o in f["sources"]] for f in a["puzzles"]])
        for a in found["fits_another_variant"]
    ]
    assert listed == [("copier", [[("source", True), ("x", False)]])]
    assert [p["submission"] for p in found["fits_published_puzzle"]] == ["finder"]
    text = _evidence.markdown(found)
    assert (
        "    - `copier`'s answer fits `source`'s variant (student `id-source`, who handed in this puzzle); the two "
        "answer files are identical (whitespace aside), which is no evidence against `source`"
        in text
    )


def test_an_answer_solved_for_a_classmate_s_variant_frames_no_one() -> None:
    """A student who hands in answers solved for a classmate's variant (the seed and the
    roster are in the assignment file) is the subject of the evidence; the classmate is named
    only under the author, and only when they handed in an answer of their own."""
    from checker.grading import _evidence

    stub = _evidence.stub_digests(["cumsum"])["cumsum"]
    untouched = sorted(stub)[0]
    entries = [
        _entry("mallory", "cumsum@1", fits=["cumsum@2"], file="m"),
        _entry("victim", "cumsum@2", status="pass", file="v"),  # solved their own variant, another file
        _entry("idle", "cumsum@2", status="todo", file=untouched),  # handed in the stub as it was
        _entry("stubby", "cumsum@2", status="fail", file=untouched),  # the published stub, whitespace aside
        _entry("absent", "cumsum@2", status="todo", file=""),  # no file for the puzzle
    ]
    found = _evidence.report(entries)
    assert [a["submission"] for a in found["fits_another_variant"]] == ["mallory"]
    assert [o["submission"] for o in found["fits_another_variant"][0]["puzzles"][0]["sources"]] == ["victim"]
    assert found["fits_another_variant"][0]["puzzles"][0]["sources"][0]["same_file"] is False
    assert found["identical_answer_files"] == []  # two untouched stubs are no identical answers
    text = _evidence.markdown(found)
    section = text.split("## An answer fits a classmate's variant")[1].split("\n## ")[0]
    assert (
        "- `mallory` (`id-mallory`): 1 puzzle(s) where `mallory`'s answer fits another variant and not its own"
        in section
    )
    assert (
        "    - `mallory`'s answer fits `victim`'s variant (student `id-victim`, who handed in this puzzle)\n" in section
    )
    assert not any(line.startswith("- `victim`") for line in section.splitlines())
    assert "idle" not in text and "stubby" not in text and "absent" not in text
    alone = _evidence.report(
        [
            _entry("mallory", "cumsum@1", fits=["cumsum@2"], file="m"),
            _entry("idle", "cumsum@2", status="todo", file=untouched),
        ]
    )
    assert [f["sources"] for f in alone["fits_another_variant"][0]["puzzles"]] == [[]]
    assert "no classmate with that variant handed in an answer to this puzzle" in _evidence.markdown(alone)


def test_a_record_from_another_assignment_file_or_unreadable_is_flagged_and_a_matching_one_is_not() -> None:
    from checker.grading._grade import _record_flag
    from checker.grading._submissions import Record

    assignment = Assignment((("cumsum", 1),), seed=SEED, variants=True, digest="b28053fb0be55521")
    assert _record_flag(Record(".jacpuzzles/workspace.toml", "s-1", "b28053fb0be55521"), "s-1", assignment) == ""
    assert _record_flag(None, "s-1", assignment) == ""
    assert (
        _record_flag(Record(".jacpuzzles/workspace.toml"), "s-1", assignment) == ""
    )  # an ordinary workspace claims nothing
    other = _record_flag(Record(".jacpuzzles/workspace.toml", "s-1", "0000000000000000"), "s-1", assignment)
    assert "another assignment file" in other and "0000000000000000" in other
    assert "unreadable workspace record" in _record_flag(
        Record("x", problem="x is not a readable TOML file"), "s-1", assignment
    )


def test_github_classroom_with_variants_grades_the_repositorys_student_or_says_who_is_missing(tmp_path: Path) -> None:
    import base64

    repo = _write(tmp_path / "hw-1-ada-l", {"cumsum": _reference("cumsum", "ada-l")})
    assignment = tmp_path / "a.toml"
    assignment.write_text(f"seed = {SEED}\nvariants = true\n\n[puzzles]\ncumsum = true\n")
    output = tmp_path / "github_output"

    def run(**env: str) -> subprocess.CompletedProcess[str]:
        return run_grade(
            github_classroom=repo, assignment=assignment, timeout=5, wait=300,
            env=environ(COLUMNS="200", GITHUB_OUTPUT=str(output), **env),
        )

    result = run(GITHUB_REPOSITORY="course/hw-1-ada-l", GITHUB_ACTOR="ada-l")
    assert result.returncode == 0, result.stderr[-2000:] + result.stdout[-2000:]
    decoded = json.loads(base64.b64decode(output.read_text().strip().partition("=")[2]))
    assert [t["status"] for t in decoded["tests"]] == ["pass"]
    refused = run(GITHUB_REPOSITORY="course/hw-1-ada-l", GITHUB_ACTOR="github-classroom[bot]")
    assert refused.returncode == 2 and "[students]" in refused.stdout + refused.stderr


def test_a_submission_named_after_another_student_s_id_is_skipped_not_graded_on_their_variant() -> None:
    """`s1` (not on the roster) recording ada's id is skipped: graded as ada, on ada's variants,
    with ada's answers, it would get full marks and no evidence."""
    from checker.engine._assignment import Assignment
    from checker.grading._grade import _roster_clashes

    roster = Assignment((("cumsum", 2),), seed=7, variants=True, students=(("ada", "s1"), ("bob", "s2")))
    found = [_submissions.Submission(n, Path(n)) for n in ("ada", "bob", "s1", "carol")]
    kept, taken = _roster_clashes(found, roster)
    assert [s.name for s in kept] == ["ada", "bob", "carol"]
    assert [s.name for s in taken] == ["s1"] and "is the student id of 'ada'" in taken[0].reason


def _outside_code(html: str) -> str:
    """Rendered HTML with every `<code>` element taken out: what is not shown as code."""
    return re.sub(r"<code>.*?</code>", "", html, flags=re.S)


HOSTILE_NAMES = [
    "s3</code><br><h2>STRONG: bob copied</h2><img src=http://x> [x](y) | `z`",
    "https://evil.example/login?next=grades",
    "www.evil.example",
    "eve@evil.example",
    "`` ``<a href=https://x.example>y</a>",
    "line\n# Heading\r\n[link](https://evil.example)",
    "```",
    "",
]


@pytest.mark.parametrize("hostile", HOSTILE_NAMES)
def test_names_and_ids_a_student_chose_are_shown_as_code_never_as_links_or_markup(hostile: str) -> None:
    """A recorded id with HTML plants no heading and no remote image in integrity.md and
    summary.md, and a URL as a name is no link: every name, id and message a student chose is
    one code span, whatever backticks it holds."""
    from markdown_it import MarkdownIt

    from checker.grading import _evidence
    from checker.grading._gradebook import md, summary_markdown

    renderer = MarkdownIt("commonmark").enable("table")
    shown = md(hostile)
    html = renderer.renderInline(shown)
    assert html.startswith("<code>") and html.endswith("</code>") and html.count("<code>") == 1, html
    assert "\n" not in shown
    doc = {
        "graded": 1,
        "submissions": 1,
        "ungradable": [{"submission": hostile, "reason": f"cannot read {hostile}"}],
        "max_score": 1,
        "puzzles": {},
        "skipped": [],
        "scores": {"mean": 1.0, "median": 1.0, "min": 1, "max": 1, "distribution": {"1": 1}},
        "flagged": [{"submission": hostile, "student": hostile, "flag": f"made for student {hostile!r}"}],
    }
    entries = [
        _entry(hostile or "x", "cumsum@1", fits=["cumsum@2"], file="same"),
        _entry("b", "cumsum@2", status="pass", file="same"),
        _entry("c", "cumsum@1", wrong={"cumsum@1": "d"}),
        _entry("d", "cumsum@1", wrong={"cumsum@1": "d"}),
    ]
    entries[1]["student"] = hostile
    entries[0]["flag"] = hostile
    for text in (summary_markdown(doc), _evidence.markdown(_evidence.report(entries, stubs={}))):
        outside = _outside_code(renderer.render(text))
        for tag in ("<a ", "<img", "<h2>STRONG", "<br", "<h1>Heading"):
            assert tag not in outside, (tag, outside)
        for url in ("evil.example", "http://x", "https://x.example"):
            assert url not in outside, (url, outside)


def test_the_pytest_plugin_grades_the_student_s_own_variant(tmp_path: Path) -> None:
    """`pytest --jacpuzzles --jacpuzzles-assignment FILE --jacpuzzles-student ID`: the student's
    own variant's answer passes, the published answer fails; without the id, a usage error."""
    assignment = tmp_path / "a.toml"
    assignment.write_text('seed = 7\nvariants = true\n[puzzles]\ncumsum = 2\n[students]\n"ada-l" = "s1"\n')
    own = _variants.assigned(7, "s1", "cumsum")
    answers = tmp_path / "answers"
    (answers / "autodiff").mkdir(parents=True)
    (answers / "autodiff" / "cumsum.py").write_text(
        _stubs.header(own)
        + _stubs.MARKER
        + "\n"
        + _variants.fill(own, (REPO / "tests" / "variants" / "autodiff" / "cumsum.py").read_text())
    )
    base = [sys.executable, "-m", "pytest", "--jacpuzzles", "--jacpuzzles-dir", str(answers), "-p", "no:cacheprovider",
            "-q", "--jacpuzzles-assignment", str(assignment)]
    env = {**os.environ, "COLUMNS": "200"}
    passed = subprocess.run(
        [*base, "--jacpuzzles-student", "ada-l"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600
    )
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout[-3000:] + passed.stderr[-2000:]
    (answers / "autodiff" / "cumsum.py").write_text((REPO / "solutions" / "autodiff" / "cumsum.py").read_text())
    published = subprocess.run(
        [*base, "--jacpuzzles-student", "ada-l"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600
    )
    assert published.returncode == 1 and "1 failed" in published.stdout, published.stdout[-3000:]
    missing = subprocess.run(base, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert missing.returncode == 4 and "pass --jacpuzzles-student ID" in missing.stderr


def test_gradescope_never_grades_a_student_missing_from_the_roster_on_other_variants(tmp_path: Path) -> None:
    # The roster lists the login, Gradescope knows the email: no silent grade on the email's variants.
    root = tmp_path / "autograder"
    _write(root / "submission", {"cumsum": _reference("cumsum", "s1")})
    (root / "submission_metadata.json").write_text(json.dumps({"users": [{"email": "ada@example.edu", "id": 7}]}))
    assignment = tmp_path / "a.toml"
    assignment.write_text(f'seed = {SEED}\nvariants = true\n\n[puzzles]\ncumsum = true\n\n[students]\n"ada-l" = "s1"\n')
    result = _gradescope(root, assignment)
    assert result.returncode == 3, result.stderr[-2000:] + result.stdout[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["tests"] == [] and results["score"] == 0
    seen = " ".join(results["output"].split())  # what the student sees
    assert seen.startswith("NOT GRADED: this assignment gives each student their own variants, and the student here "
                           "(Gradescope's ada@example.edu, 7) is not on its roster")
    assert '`"ada@example.edu" = "STUDENT-ID"` to [students]' in seen and "The 0 shown is not a grade." in seen
    said = " ".join(result.stdout.split())  # what the instructor sees
    assert (
        "NOT GRADED: this assignment gives each student their own variants" in said
        and "grading the variants" not in said
    )
    # Listed by email (any case), by Gradescope's sid, or by the student id itself: graded on s1's variants.
    for roster, meta in (
        ('"ADA@example.edu" = "s1"', {"email": "ada@example.edu"}),
        ('"ada-l" = "s1"', {"email": "x@y", "sid": "s1"}),
    ):
        assignment.write_text(f"seed = {SEED}\nvariants = true\n\n[puzzles]\ncumsum = true\n\n[students]\n{roster}\n")
        (root / "submission_metadata.json").write_text(json.dumps({"users": [meta]}))
        result = _gradescope(root, assignment)
        assert result.returncode == 0, result.stderr[-2000:] + result.stdout[-2000:]
        assert "grading the variants of student s1" in result.stdout
        assert [t["status"] for t in json.loads((root / "results" / "results.json").read_text())["tests"]] == ["passed"]


def test_github_classroom_never_grades_a_login_missing_from_the_roster(tmp_path: Path) -> None:
    repo = _write(tmp_path / "repo", {"cumsum": _reference("cumsum", "s1")})
    output = tmp_path / "output"
    assignment = Assignment((("cumsum", 2),), seed=SEED, variants=True, students=(("ada-l", "s1"),))
    console = Console(file=__import__("io").StringIO(), width=200)
    env = {"GITHUB_OUTPUT": str(output), "GITHUB_REPOSITORY": "org/hw-1-carol", "GITHUB_ACTOR": "carol"}
    from checker.grading._sandbox import Limits

    code = _autograde.github_classroom(repo, Limits(5, 0), 0, None, console, console, assignment, env)
    assert code == 3
    import base64

    result = json.loads(base64.b64decode(output.read_text().strip().removeprefix("result=")))
    assert result["max_score"] == 0 and result["status"] == "error"
    message = " ".join(result["tests"][0]["message"].split())
    assert message.startswith(
        "NOT GRADED: the grader could not grade this repository: this assignment gives each student their own variants"
    )
    assert "(GitHub login carol) is not on its roster" in message and '`"carol" = "STUDENT-ID"`' in message
