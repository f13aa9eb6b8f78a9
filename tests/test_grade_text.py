"""What a student receives from the grader (the `.txt` feedback, the `.json` entry, Classroom's
and Gradescope's results) holds no seed, no path of the grader's, no set-up advice meant for the
instructor; and no text from an answer or a diagnosis is ever read as rich markup. Plus the
reading of broken zips and the file names of OUT, without running any worker."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from pathlib import Path

import jax.numpy as jnp
import pytest
from rich.console import Console

from checker import check_answer
from checker.engine._report import render, summary_table
from checker.engine._verdict import Diagnosis, Kind, OracleCheck, Status, Verdict
from checker.frontends._autograde import classroom_result, gradescope_results
from checker.grading._grade import _for_students, _hidden, _oracle_notes, _table
from checker.grading._gradebook import feedback, graded, write_atomic
from checker.grading._submissions import Submission, Unreadable, read
from tests import test_grade_malformed as malformed

SEED = 424242
SCRATCH = "/tmp/jacpuzzles-grade-abc123"
ADVICE = (
    'TensorFlow is not installed and the recording covers seed 0\'s draws only; `pip install -e ".[tf]"` for a '
    'live check'
)


@pytest.fixture(scope="session")
def student_view() -> Verdict:
    """A failing verdict as the grader makes it: seed, worker paths, an oracle's set-up note."""
    verdict = check_answer("neg", lambda x: jnp.eye(10), seed=SEED)
    assert verdict.status is Status.FAIL and str(SEED) in verdict.message + repr(verdict.seed)
    raw = dataclasses.replace(
        verdict,
        location=f"{SCRATCH}/job3-xyz/code/autodiff/neg.py:7: return x",
        output=f"I live in {SCRATCH}/job3-xyz/code/autodiff/neg.py and /class/subs/bob/neg.py\n",
        oracles=(*verdict.oracles, OracleCheck("TensorFlow", None, ADVICE)),
    )
    return _for_students(raw, SEED, _hidden(SCRATCH, Path("/class/subs"), Path("/class/out")))


def _received(verdict: Verdict) -> list[str]:
    doc = graded("alice", "k" * 64, [verdict], {"neg": 1})
    return [
        feedback(doc, [verdict], {"neg": 1}),
        json.dumps(doc, ensure_ascii=False),
        json.dumps(classroom_result(doc)),
        json.dumps(gradescope_results(doc, 3.0)),
    ]


def test_no_seed_in_anything_a_student_receives(student_view: Verdict) -> None:
    for text in _received(student_view):
        assert str(SEED) not in text
        assert "seed" not in text.lower()


def test_no_grader_path_in_anything_a_student_receives(student_view: Verdict) -> None:
    for text in _received(student_view):
        assert SCRATCH not in text and "/class/subs" not in text and "job3-xyz" not in text
    assert student_view.location == "autodiff/neg.py:7: return x"  # the student's own file
    assert student_view.output.startswith("I live in autodiff/neg.py and bob/neg.py")


def test_no_set_up_advice_for_the_instructor_in_anything_a_student_receives(student_view: Verdict) -> None:
    for text in _received(student_view):
        assert "pip install" not in text and ".[tf]" not in text
    assert student_view.oracles[-1].note == "not compared on the grader"


def test_the_set_up_advice_goes_to_the_instructor_once() -> None:
    expected = {"a": ([], [("TensorFlow", None, ADVICE)]), "b": ([], [("TensorFlow", None, ADVICE)]), "c": ([], [])}
    assert _oracle_notes(expected) == [f"TensorFlow: not compared: {ADVICE}"]


def test_a_seed_like_number_that_is_not_the_seed_stays() -> None:
    verdict = Verdict(
        "neg",
        Status.FAIL,
        f"wrong on 4242420 cells (seed {SEED})",
        (Diagnosis(Kind.CELLS, "seed 42424 is not ours"),),
        seed=SEED,
    )
    shown = _for_students(verdict, SEED, ())
    assert shown.message == "wrong on 4242420 cells" and shown.diagnoses[0].message == "seed 42424 is not ours"


def _render(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_diagnosis_in_brackets_is_text_not_markup() -> None:
    message = "you put [d f / d x] where [d f / d y] belongs"
    verdict = Verdict("neg", Status.FAIL, message, (Diagnosis(Kind.CELLS, message),))
    assert message in _render(summary_table([verdict, dataclasses.replace(verdict, puzzle="relu")]))


def test_what_an_answer_printed_is_text_not_markup() -> None:
    verdict = Verdict(
        "neg", Status.ERROR, "raised", (Diagnosis(Kind.EXCEPTION, "raised"),), output="[/] [bold]loud[/bold] [link=x]"
    )
    console = Console(file=io.StringIO(), width=200, color_system=None)
    render(
        [verdict, dataclasses.replace(verdict, puzzle="relu")], console, seed=False
    )  # a closing tag alone raises nothing
    out = console.file
    assert isinstance(out, io.StringIO) and "[/] [bold]loud[/bold] [link=x]" in out.getvalue()


def test_names_and_reasons_in_the_class_table_are_text_not_markup() -> None:
    docs = [
        {
            "submission": "[red]eve",
            "status": "ungradable",
            "score": None,
            "max_score": 1,
            "reason": "entry [bold]x[/bold] refused",
            "results": [],
        }
    ]
    shown = _render(_table(docs))
    assert "[red]eve" in shown and "entry [bold]x[/bold] refused" in shown


def test_files_of_a_250_byte_name_are_written(tmp_path: Path) -> None:
    name = "n" * 250
    write_atomic(tmp_path / f"{name}.json", "{}\n")
    assert (tmp_path / f"{name}.json").read_text() == "{}\n"
    assert not list(tmp_path.glob(".*.partial"))


@pytest.mark.parametrize("build, reason", [
    (malformed._encrypted, "is encrypted (password-protected)"),
    (malformed._unknown_method, "uses a compression method the grader cannot read"),
    (malformed._bad_utf8_name, "has a file name that is not valid UTF-8"),
    (malformed._bad_crc, "is damaged (Bad CRC-32"),
    (malformed._truncated, "is damaged"),
    (malformed._deep_zip, "nested more than 32 folders deep"),
    (malformed._deep_folder, "folders are nested more than 32 deep"),
])
def test_a_broken_submission_is_unreadable_with_a_plain_reason(tmp_path: Path, build: object, reason: str) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    build(subs)  # type: ignore[operator]
    (source,) = subs.iterdir()
    found = read(Submission(source.stem, source), ["cumsum", "neg"], tmp_path / "scratch")
    assert isinstance(found, Unreadable) and reason in found.reason
    if source.is_dir():
        malformed._remove_deep(source)


def test_an_encrypted_entry_that_is_no_answer_is_never_read(tmp_path: Path) -> None:
    data = malformed._zip_bytes({"notes.txt": b"secret", "autodiff/neg.py": malformed._ref("neg")})
    at = data.find(b"PK\x03\x04")  # flag the first entry (notes.txt) only, local and central
    patched = bytearray(data)
    patched[at + 6] |= 1
    central = data.find(b"PK\x01\x02")
    patched[central + 8] |= 1
    (tmp_path / "z.zip").write_bytes(bytes(patched))
    with zipfile.ZipFile(tmp_path / "z.zip") as archive:
        assert archive.infolist()[0].flag_bits & 1
    found = read(Submission("z", tmp_path / "z.zip"), ["neg"], tmp_path / "scratch")
    assert not isinstance(found, Unreadable) and found.files == {"neg": "autodiff/neg.py"}
    assert (found.root / "autodiff" / "neg.py").read_bytes() == malformed._ref("neg")


def test_relative_folders_do_not_eat_words_from_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    hidden = _hidden(SCRATCH, Path("subs"), Path("out"))
    assert all(p.startswith("/") for p in hidden)
    text = f"output axes first; checkout {tmp_path}/out/x.json and {SCRATCH}/7/autodiff/neg.py and {SCRATCH}-other"
    verdict = _for_students(Verdict("neg", Status.FAIL, text), SEED, hidden)
    assert verdict.message == f"output axes first; checkout x.json and autodiff/neg.py and {SCRATCH}-other"


def test_a_grader_path_glued_to_the_text_before_it_is_scrubbed_too() -> None:
    # A repr of the zygote's command line (red team RT23): NUL separators print as `\x00`.
    hidden = _hidden(SCRATCH, Path("/class/subs"), Path("/class/out"))
    text = f"GLUED=x00{SCRATCH}/config.json BYTES=b'\\x00/class/subs\\x00{SCRATCH}/7/autodiff/neg.py'"
    verdict = _for_students(Verdict("neg", Status.FAIL, text), SEED, hidden)
    assert SCRATCH not in verdict.message and "/class/subs" not in verdict.message, verdict.message
    assert verdict.message == "GLUED=x00config.json BYTES=b'\\x00…\\x00autodiff/neg.py'"


def test_a_zip_entry_whose_name_cannot_be_a_file_name_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "z.zip").write_bytes(malformed._zip_bytes({"x" * 300 + "/autodiff/neg.py": malformed._ref("neg")}))
    found = read(Submission("z", tmp_path / "z.zip"), ["neg"], tmp_path / "scratch")
    assert isinstance(found, Unreadable) and "File name too long" in found.reason


def test_the_graders_own_failure_reading_one_submission_makes_it_ungradable_and_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.grading import _grade, _journal, _submissions
    from checker.grading._sandbox import Limits

    def broken(*args: object) -> None:
        raise ValueError("a bug of ours")

    monkeypatch.setattr(_submissions, "read", broken)
    (tmp_path / "alice").mkdir()
    plan = _grade._plan(
        Submission("alice", tmp_path / "alice"), tmp_path / "0", ["neg"], {"neg": 1}, 0, Limits(timeout=2, memory_mb=0)
    )
    assert (
        plan.answers is None and plan.reason == "the grader failed reading this submission: ValueError: a bug of ours"
    )
    assert plan.key == "" and _grade._resumed(tmp_path, plan, _journal.key(tmp_path)) == (
        None,
        "",
    )  # graded again by the next run


def test_entries_that_are_links_or_not_files_are_skipped_with_why(tmp_path: Path) -> None:
    import os

    from checker.grading._submissions import discover

    (tmp_path / "ada").mkdir()
    (tmp_path / "x.zip").mkdir()  # a folder, whatever its name
    (tmp_path / "linked").symlink_to(tmp_path / "ada")
    os.mkfifo(tmp_path / "piped.zip")
    (tmp_path / "notes.txt").write_text("")
    found, skipped = discover(tmp_path)
    assert [(s.name, s.source.name) for s in found] == [("ada", "ada"), ("x.zip", "x.zip")]
    reasons = {s.name: s.reason for s in skipped}
    assert reasons == {"linked": "linked is a symbolic link: not followed; put the submission itself in the folder",
                       "piped": "piped.zip is not a regular file: not read; put the zip file itself in the folder"}


def test_an_archive_the_grader_does_not_read_is_skipped_with_a_line_not_ignored(tmp_path: Path) -> None:
    # Red team RT32: a `.tar.gz` handed in left its student out of grades.csv without a word.
    from checker.grading._submissions import discover

    for name in ("bo.tar.gz", "cy.7z", "dee.RAR", "notes.txt", ".tar"):
        (tmp_path / name).write_bytes(b"")
    found, skipped = discover(tmp_path)
    assert found == []
    assert {s.name: s.reason for s in skipped} == {
        "bo": "bo.tar.gz is a .tar.gz archive: the grader reads folders and .zip files; unpack it into a folder, or "
              "zip it",
        "cy": "cy.7z is a .7z archive: the grader reads folders and .zip files; unpack it into a folder, or zip it",
        "dee": "dee.RAR is a .RAR archive: the grader reads folders and .zip files; unpack it into a folder, or zip it",
    }


def test_a_fifo_or_a_link_named_like_an_answer_is_never_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from checker.grading import _submissions

    sub = tmp_path / "sub" / "autodiff"
    sub.mkdir(parents=True)
    os.mkfifo(sub / "neg.py")
    (sub / "cumsum.py").symlink_to("/dev/zero")
    opened: list[str] = []
    monkeypatch.setattr(_submissions, "_read_file", lambda path, rel: opened.append(path))  # type: ignore[func-returns-value]
    found = read(Submission("sub", tmp_path / "sub"), ["neg", "cumsum"], tmp_path / "scratch")
    assert not isinstance(found, Unreadable) and not opened
    assert found.missing == {
        "neg": ("error", "autodiff/neg.py is not a regular file: not read; submit the file itself"),
        "cumsum": ("error", "autodiff/cumsum.py is a symbolic link: not read; submit the file itself"),
    }


def test_a_long_note_never_squeezes_names_and_scores_out_of_an_80_column_table() -> None:
    """On an 80-column stdout that is no terminal, one long ungradable reason takes no more than
    its share of the width: the submission and score columns keep theirs."""
    reason = (
        "the submission could not be read: zip entry 'autodiff/cumsum.py' has a bad CRC-32 checksum; ask the student "
        "to zip it again "
        * 2
    )
    docs = [
        {
            "submission": "alice-smith-2024",
            "status": "ungradable",
            "score": None,
            "max_score": 104,
            "reason": reason,
            "results": [],
        },
        {"submission": "bob", "status": "graded", "score": 57, "max_score": 104, "results": [{"status": "pass"}] * 20},
    ]
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(_table(docs))
    out = console.file
    assert isinstance(out, io.StringIO)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    for header in ("submission", "score", "pass", "fail", "error", "todo", "note"):
        assert header in lines[1], lines[1]
    assert any("alice-smith-2024" in line and "ungradable" in line for line in lines)
    assert any("bob" in line and "57/104" in line and " 20 " in line for line in lines)
    assert "CRC-32" in out.getvalue()  # the note folds onto more lines, whole


def test_a_graded_submission_off_the_roster_is_named_with_its_foreign_letters() -> None:
    # Red team RT23: `viс` (a Cyrillic `с`) beside the roster's `vic` was graded under its own
    # name, and nothing told the instructor it was not the listed student.
    from checker.engine._assignment import Assignment
    from checker.grading import _gradebook
    from checker.grading._grade import _off_roster

    roster = Assignment(puzzles=(("neg", 1),), variants=True, students=(("vic", "s-vic"), ("bob", "s-bob")))
    docs = [{"submission": name, "status": status} for name, status in
            (("vic", _gradebook.GRADED), ("vi\u0441", _gradebook.GRADED), ("late", _gradebook.GRADED),
             ("s-bob", _gradebook.SKIPPED))]
    found = {u["submission"]: u["note"] for u in _off_roster(docs, roster)}
    assert set(found) == {"vi\u0441", "late"}
    assert "U+0441 CYRILLIC SMALL LETTER ES" in found["vi\u0441"] and "U+" not in found["late"]
    assert _off_roster(docs, Assignment(puzzles=(("neg", 1),))) == []  # no roster: nothing to be off
    text = _gradebook.summary_markdown({
        "graded": 3, "submissions": 4, "ungradable": [], "max_score": 1, "puzzles": {},
        "scores": {"mean": None, "distribution": {}}, "not_on_roster": _off_roster(docs, roster),
    })
    assert "## Not on the roster" in text and "CYRILLIC SMALL LETTER ES" in text
