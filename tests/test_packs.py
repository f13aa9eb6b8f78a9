"""Puzzle packs: an instructor's chapter in the kit's own catalog format.

`pack new` makes a pack that `pack check` passes; `pack check` names each problem on one line
(puzzle, field, what to change); `--pack DIR` adds the chapter to the commands; a pack cannot
take a kit's chapter or puzzle name, and leaves the catalog as it was once it is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from checker.authoring import _packs
from checker.cli._cli import main
from checker.engine import _catalog


@pytest.fixture(autouse=True)
def _no_packs_after() -> Iterator[None]:
    yield
    _catalog.use_packs([])


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "course"
    _packs.new(folder)
    return folder


def _answer(pack: Path) -> Path:
    return pack / "solutions" / "course" / "softsign.py"


def test_a_new_pack_passes_its_own_check_with_every_mutant_caught(pack: Path) -> None:
    assert sorted(p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file()) == [
        "README.md", "pack.toml", "solutions/course/softsign.py"]
    report = _packs.check(pack)
    assert report.problems == [] and report.chapter == "course" and report.puzzles == ["softsign"]
    caught, total = report.mutation["softsign"]
    assert total >= 2 and caught == total
    assert report.draws >= 25 * 20  # seeds 0-24, each a full batch of draws


def test_the_kit_is_unchanged_once_the_pack_is_dropped(pack: Path) -> None:
    before = [p.name for p in _catalog.puzzles()]
    _catalog.use_packs([pack])
    assert [p.name for p in _catalog.puzzles()] == before + ["softsign"]
    assert _catalog.pack_of(_catalog.puzzle_named("softsign")) == pack.resolve()
    assert _catalog.pack_of(_catalog.puzzle_named("cumsum")) is None
    _catalog.use_packs([])
    assert [p.name for p in _catalog.puzzles()] == before


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda t: t.replace("hints = [", "hints = [\n]\nhits = ["),
            "softsign: puzzle: unknown field 'hits'; did you mean 'hints'?",
        ),
        (
            lambda t: t.replace('name = "softsign"', 'name = "cumsum"'),
            "puzzle name 'cumsum' is used twice (also in the kit's autodiff chapter); rename one",
        ),
        (
            lambda t: t.replace('name = "course"', 'name = "autodiff"'),
            "chapter name 'autodiff' is taken by the kit's autodiff chapter; rename the chapter",
        ),
        (lambda t: t.replace('out = ["{{n}}"]', 'out = ["{{n}}", 2]'), "softsign: code/out:"),
        (
            lambda t: t.replace('avoid = ["zero"]', 'avoid = ["zeros"]'),
            "cannot avoid ['zeros']; known: ('zero', 'ties')",
        ),
        (lambda t: t.replace("[chapter]", "[chapters]"), "expected a [chapter] table with name, title and summary"),
        (lambda t: t + "\n[[puzzle\n", "not valid TOML"),
    ],
)
def test_each_problem_is_one_line_naming_what_to_change(pack: Path, edit: object, expected: str) -> None:
    catalog = pack / "pack.toml"
    catalog.write_text(edit(catalog.read_text()))  # type: ignore[operator]
    report = _packs.check(pack, mutation=False)
    assert len(report.problems) == 1 and expected in report.problems[0], report.problems
    assert "\n" not in report.problems[0]


def test_a_wrong_reference_answer_a_missing_one_and_missing_hints_are_named(pack: Path) -> None:
    answer = _answer(pack)
    answer.write_text(answer.read_text().replace("np.diag(2 /", "np.diag(1 /"))
    catalog = pack / "pack.toml"
    text = re.sub(r"hints = \[.*?\n\]", "hints = []", catalog.read_text(), flags=re.S)
    catalog.write_text(re.sub(r'\nwhy = ".*?"\n', '\nwhy = ""\n', text))
    report = _packs.check(pack, mutation=False)
    text = "\n".join(report.problems)
    assert "softsign: hints: none" in text and "softsign: why: empty" in text
    assert "softsign: reference answer fails on seeds 0, 1" in text and "1/2 of the expected one" in text
    answer.unlink()
    assert any(
        "softsign: reference answer: expected" in p and "found none" in p
        for p in _packs.check(pack, mutation=False).problems
    )


def test_pack_new_refuses_to_overwrite_and_the_cli_says_so(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (pack / "pack.toml").read_text()
    assert main(["pack", "new", str(pack)]) == 2
    assert "exists already: not overwritten" in capsys.readouterr().err
    assert (pack / "pack.toml").read_text() == before


def test_the_commands_take_pack_and_check_the_pack_s_answers(
    pack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pack", "check", str(pack), "--no-mutation"]) == 0
    assert "pack OK" in capsys.readouterr().out
    work = tmp_path / "work"
    (work / "course").mkdir(parents=True)
    (work / "course" / "softsign.py").write_text(_answer(pack).read_text())
    assert main(["check", "softsign", "--dir", str(work), "--pack", str(pack), "--json"]) == 0
    assert '"pass"' in capsys.readouterr().out
    assert main(["show", "softsign", "--pack", str(pack)]) == 0
    assert "2 * x / (1 + np.abs(x))" in capsys.readouterr().out
    assert main(["hint", "softsign", "--dir", str(work), "--pack", str(pack)]) == 0
    assert "one row per output entry" in capsys.readouterr().out
    assert main(["show", "softsign"]) == 2  # without --pack the kit does not know it
    assert "no puzzle named 'softsign'" in capsys.readouterr().err


def test_a_pack_folder_without_pack_toml_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--pack", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "expected a file pack.toml in it, found none" in err and "jacpuzzles pack new DIR" in err


def test_an_assignment_names_packs_relative_to_itself_and_may_assign_their_puzzles(pack: Path, tmp_path: Path) -> None:
    from checker.engine._assignment import BadSetup, load

    file = tmp_path / "hw" / "assignment.toml"
    file.parent.mkdir()
    file.write_text('seed = 3\npacks = ["../course"]\n[puzzles]\ncumsum = 2\nsoftsign = 5\n')
    assignment = load(file)
    assert assignment.packs == (pack.resolve(),) and assignment.points() == {"cumsum": 2, "softsign": 5}
    file.write_text('packs = ["../nowhere"]\n')
    with pytest.raises(BadSetup, match="packs: pack .*nowhere: no such folder"):
        load(file)
    file.write_text('packs = "../course"\n')
    with pytest.raises(BadSetup, match="packs must be a list of folder paths"):
        load(file)


def test_a_workspace_made_with_a_pack_remembers_it(
    pack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    assert main(["init", str(work), "--pack", str(pack)]) == 0
    assert (work / "course" / "softsign.py").is_file()
    _catalog.use_packs([])
    monkeypatch.chdir(work / "course")
    capsys.readouterr()
    assert main(["check", "softsign"]) == 1  # the stub, checked against the pack's puzzle, no flag needed
    assert "softsign" in capsys.readouterr().out
    (work / "course" / "softsign.py").write_text(_answer(pack).read_text())
    assert main(["check", "softsign"]) == 0
    assert main(["solution", "softsign"]) == 0
    assert "np.diag(2 / (1 + np.abs(x)) ** 2)" in capsys.readouterr().out


def test_a_pack_chapter_s_notebook_loads_its_pack_and_checks_against_it(pack: Path, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.conftest import REPO

    out = tmp_path / "course.ipynb"
    assert main(["notebook", str(out), "--chapter", "course", "--blank", "--pack", str(pack)]) == 0
    cells = ["".join(c["source"]) for c in json.loads(out.read_text())["cells"] if c["cell_type"] == "code"]
    assert f"checker.use_packs([{str(pack.resolve())!r}])" in cells[0]
    answer = _answer(pack).read_text().split(_packs._stubs.MARKER)[1]
    program = "\n".join(
        [cells[0], cells[1], answer, f"result = {cells[3].strip()}", "print(result.verdict.status.value)"]
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1] == "pass", done.stderr[-2000:]


def test_grade_runs_a_pack_s_puzzles_in_its_workers_and_never_shows_them_its_answers(
    pack: Path, tmp_path: Path
) -> None:
    """`grade --pack DIR`: the pack's catalog reaches the workers as text, and the pack's folder
    (its reference answers) is out of their view: an answer that reads it finds nothing."""
    import json

    from tests._grading import environ, run_grade

    subs = tmp_path / "subs"
    right = subs / "ada" / "course"
    right.mkdir(parents=True)
    right.joinpath("softsign.py").write_text(_answer(pack).read_text())
    peek = subs / "eve" / "course"
    peek.mkdir(parents=True)
    reference = _answer(pack).resolve()
    peek.joinpath("softsign.py").write_text(
        _answer(pack).read_text().split(_packs._stubs.MARKER)[0]
        + _packs._stubs.MARKER
        + f"""
def jac(x):
    text = open({str(reference)!r}).read()  # the pack's own reference answer
    namespace = {{}}
    exec(text.split("MARKER_LINE")[-1], namespace)
    return namespace["jac"](x)
""".replace("MARKER_LINE", _packs._stubs.MARKER)
    )
    assignment = tmp_path / "a.toml"
    assignment.write_text('[puzzles]\nsoftsign = 2\ncumsum = 2\n')
    out = tmp_path / "out"
    done = run_grade(
        subs, out=out, pack=pack, assignment=assignment, timeout=5, wait=900, env=environ(COLUMNS="200"), stdin=None
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ada = {r["puzzle"]: r["status"] for r in json.loads((out / "ada.json").read_text())["results"]}
    eve = {r["puzzle"]: r for r in json.loads((out / "eve.json").read_text())["results"]}
    assert ada == {"softsign": "pass", "cumsum": "todo"}
    assert eve["softsign"]["status"] == "error", eve["softsign"]


def test_a_classroom_template_carries_its_pack_without_answers_by_relative_path(
    pack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import base64
    import json
    import shutil

    from checker.learner import _workspace
    from tests._grading import environ, run_grade
    from tests.conftest import REPO

    template = tmp_path / "template"
    assert main(["init", str(template), "--classroom", "--pack", str(pack)]) == 0
    assert (template / "packs" / "course" / "pack.toml").read_text() == (pack / "pack.toml").read_text()
    assert not (template / "packs" / "course" / "solutions").exists()  # the reference answers stay with the instructor
    assert 'packs = ["packs/course"]' in _workspace.marker(template).read_text()
    _catalog.use_packs([])
    # A student's clone, elsewhere, with the instructor's pack out of reach.
    clone = tmp_path / "elsewhere" / "hw-1-ada"
    shutil.copytree(template, clone)
    shutil.rmtree(pack)
    monkeypatch.chdir(clone / "course")
    capsys.readouterr()
    assert main(["list"]) == 0
    assert "softsign" in capsys.readouterr().out
    assert main(["check", "softsign"]) == 1  # the stub, against the pack's puzzle
    # The Classroom grader counts the pack's puzzles too.
    output = tmp_path / "github_output"
    env = environ(COLUMNS="200", GITHUB_OUTPUT=str(output), PYTHONPATH=str(REPO))
    done = run_grade(github_classroom=clone, timeout=5, wait=900, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(base64.b64decode(output.read_text().strip().removeprefix("result=")))
    assert "softsign" in {t["name"] for t in result["tests"]}
    _catalog.use_packs([])
    assert result["max_score"] == sum(p.points for p in _catalog.puzzles()) + 2  # the kit's 134 and softsign's 2
    # A pack the repository's record names but that is gone: refused, never left out.
    shutil.rmtree(clone / "packs")
    gone = run_grade(github_classroom=clone, timeout=5, wait=900, env=env, cwd=tmp_path)
    assert gone.returncode == 2, gone.stdout[-2000:]
    assert f"pack {clone / 'packs' / 'course'}: no such folder" in " ".join(gone.stderr.split())
