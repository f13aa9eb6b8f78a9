"""A student's workspace: `init --assignment FILE --student ID`, and every learner command in it
using the student's own variant."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from checker.engine import _assignment, _catalog, _stubs, _variants
from checker.engine._catalog import Puzzle
from checker.learner import _workspace
from tests.conftest import REPO, SOLUTIONS
from tests.test_workspace import jacpuzzles

STUDENT = "s1234"
SEED = 4021
ASSIGNMENT = f"""\
seed = {SEED}
variants = true

[puzzles]
cumsum = 3
running_mean = true
conv = 2
"""
ASSIGNED = ("cumsum", "running_mean", "conv")  # catalog order


def _one_line(text: str) -> str:
    return " ".join(text.split())


def variant_answer(puzzle: Puzzle) -> str:
    """The whole answer file for `puzzle`'s variant: its header, and the reference answer kept
    with the tests (tests/variants/), its placeholders filled in."""
    template = (REPO / "tests" / "variants" / puzzle.chapter / f"{puzzle.name}.py").read_text()
    return _stubs.header(puzzle) + _stubs.MARKER + "\n" + _variants.fill(puzzle, template)


def make(base: Path, text: str = ASSIGNMENT, *extra: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    (base / "hw.toml").write_text(text)
    result = jacpuzzles("init", "ws", "--assignment", "hw.toml", "--student", STUDENT, *extra, cwd=base)
    return base / "ws", result


@pytest.fixture(scope="session")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A student's workspace made by `init --assignment --student`, untouched."""
    folder, result = make(tmp_path_factory.mktemp("student"))
    assert result.returncode == 0, result.stderr
    return folder


def mine(name: str) -> Puzzle:
    return _variants.assigned(SEED, STUDENT, name)


# ---- init -----------------------------------------------------------------------------------


def test_init_writes_the_students_own_stubs_with_concrete_values(ws: Path) -> None:
    written = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*.py"))
    assert written == sorted(f"autodiff/{n}.py" for n in ASSIGNED)  # the assignment's puzzles only
    for name in ASSIGNED:
        text = (ws / "autodiff" / f"{name}.py").read_text()
        assert text == _stubs.stub(mine(name))
        assert mine(name).variant, f"{name}: a student never gets the published variant"
        assert text != _stubs.stub(_catalog.puzzle_named(name))
        assert _catalog.PLACEHOLDER.search(text) is None and "{{" not in text  # no placeholder left
        assert mine(name).code.strip() in text  # their own f, concrete
    assert "return np.cumsum(x[::-1])[::-1] / 16" in (ws / "autodiff" / "cumsum.py").read_text()


def test_init_records_the_assignment_table_as_the_contract_says(ws: Path, tmp_path: Path) -> None:
    import tomllib

    raw = tomllib.loads(_workspace.marker(ws).read_text())
    given = _assignment.load(ws.parent / "hw.toml")
    assert raw["assignment"] == {"student": STUDENT, "seed": SEED, "digest": given.digest, "variants": True}
    assert len(given.digest) == 16
    assert raw["puzzles"] == list(ASSIGNED)
    assert raw["points"] == {"cumsum": 3, "conv": 2}  # where the assignment's are not the catalog's (2 and 3)
    assert _workspace.assignment(ws / "autodiff") == _workspace.Assigned(
        STUDENT, SEED, given.digest, True, ASSIGNED, (("cumsum", 3), ("conv", 2))
    )


def test_the_workspaces_variants_are_the_ones_the_grader_derives(ws: Path) -> None:
    given = _assignment.load(ws.parent / "hw.toml")
    found = _workspace.choices(ws)
    assert {n: found[n] for n in ASSIGNED} == given.choices(STUDENT)
    assert _workspace.puzzle_in(ws, "cumsum") == mine("cumsum")


def test_init_says_whose_workspace_it_made(tmp_path: Path) -> None:
    _, result = make(tmp_path)
    out = _one_line(result.stdout)
    assert "Made a workspace in ws: 3 puzzle stubs, by chapter: autodiff/ (3)." in out
    assert f"student {STUDENT}'s own variant of each puzzle" in out and "digest" in out


def test_a_student_id_with_quotes_and_unicode_round_trips_through_the_record(tmp_path: Path) -> None:
    given = _assignment.Assignment((("cumsum", 2),), seed=7, variants=True, digest="0123456789abcdef")
    student = 'Zoë "the" \\ one'
    _workspace.init(tmp_path / "w", given, student)
    found = _workspace.assignment(tmp_path / "w")
    assert found is not None and found.student == student
    assert (tmp_path / "w" / "autodiff" / "cumsum.py").read_text() == _stubs.stub(
        _variants.assigned(7, student, "cumsum")
    )


def test_an_assignment_without_variants_records_the_table_and_writes_the_published_stubs(tmp_path: Path) -> None:
    folder, result = make(tmp_path, "seed = 5\n")
    assert result.returncode == 0, result.stderr
    assert "the published puzzles (the assignment has no variants)" in _one_line(result.stdout)
    found = _workspace.assignment(folder)
    assert found is not None and (found.student, found.seed, found.variants, found.puzzles) == (STUDENT, 5, False, ())
    assert (
        "[assignment]" in _workspace.marker(folder).read_text()
        and "variants = false" in _workspace.marker(folder).read_text()
    )
    for p in _catalog.puzzles():
        assert (folder / p.chapter / f"{p.name}.py").read_text() == _stubs.stub(p)
    assert _workspace.choices(folder) == {}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--student", "s1"), "--student needs --assignment FILE too"),
        (("--assignment", "hw.toml"), "--assignment needs --student ID too"),
        (("--assignment", "missing.toml", "--student", "s1"), "cannot read the assignment missing.toml"),
        (("--assignment", "bad.toml", "--student", "s1"), "variants = true needs a seed"),
        (("--assignment", "hw.toml", "--student", "  "), "--student needs the student's id"),
        (("--assignment", "hw.toml", "--student", "s1", "--classroom"), "--classroom writes a template repository"),
    ],
)
def test_bad_init_usage_is_one_clear_line_and_writes_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    (tmp_path / "hw.toml").write_text(ASSIGNMENT)
    (tmp_path / "bad.toml").write_text("variants = true\n")
    result = jacpuzzles("init", "ws", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in _one_line(result.stderr)
    assert "Traceback" not in result.stderr and result.stderr.count("jacpuzzles:") == 1
    assert not (tmp_path / "ws" / "autodiff").exists()


def test_a_damaged_record_is_a_clear_usage_error(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _workspace.init(folder, _assignment.Assignment((("cumsum", 2),), seed=7, variants=True, digest="d"), "s1")
    _workspace.marker(folder).write_text(_workspace.marker(folder).read_text().replace("seed = 7", 'seed = "seven"'))
    with pytest.raises(
        _workspace.WorkspaceError, match=r"\[assignment\] seed must be a whole number, 0 or more, found 'seven'"
    ):
        _workspace.choices(folder)
    result = jacpuzzles("show", "cumsum", cwd=folder)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "jacpuzzles init DIR --assignment FILE --student ID" in _one_line(result.stderr)


def test_a_plain_init_over_an_assignment_record_makes_a_canonical_workspace(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _workspace.init(folder, _assignment.Assignment((("cumsum", 2),), seed=7, variants=True, digest="d"), "s1")
    (folder / "autodiff" / "cumsum.py").unlink()
    _workspace.init(folder)
    assert _workspace.assignment(folder) is None and _workspace.choices(folder) == {}
    assert (folder / "autodiff" / "cumsum.py").read_text() == _stubs.stub(_catalog.puzzle_named("cumsum"))


def test_a_plain_workspace_has_no_record_and_the_published_puzzles(tmp_path: Path) -> None:
    _workspace.init(tmp_path / "w")
    assert "[assignment]" not in _workspace.marker(tmp_path / "w").read_text()
    assert _workspace.assignment(tmp_path / "w") is None and _workspace.choices(tmp_path / "w") == {}
    assert _workspace.puzzle_in(tmp_path / "w", "cumsum") == _catalog.puzzle_named("cumsum")
    assert _workspace.puzzle_names(tmp_path / "w") == [p.name for p in _catalog.puzzles()]


# ---- the learner's commands in a student's workspace ----------------------------------------


@pytest.fixture(scope="session")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A student's workspace where cumsum holds the variant's reference answer, running_mean the
    published reference answer (wrong for the variant), conv the stub; checked as JSON."""
    folder, result = make(tmp_path_factory.mktemp("checked"))
    assert result.returncode == 0, result.stderr
    (folder / "autodiff" / "cumsum.py").write_text(variant_answer(mine("cumsum")))
    (folder / "autodiff" / "running_mean.py").write_text((SOLUTIONS / "autodiff" / "running_mean.py").read_text())
    return folder, jacpuzzles("check", "--json", cwd=folder)


def test_check_passes_the_variants_answer_and_fails_the_published_one_and_the_stub(
    checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, result = checked
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    statuses = {v["puzzle"]: v["status"] for v in doc["results"]}
    assert statuses == {"cumsum": "pass", "running_mean": "fail", "conv": "todo"}  # the assignment's puzzles only
    assert mine("running_mean").variant != ()


def test_list_shows_the_assignments_puzzles_with_the_statuses_of_their_variants(
    checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    folder, _ = checked
    result = jacpuzzles("list", cwd=folder)
    assert result.returncode == 0, result.stderr
    rows = {
        line.split("│")[1].strip(): line.split("│")[-1].strip()
        for line in result.stdout.splitlines()
        if line.count("│") >= 5
    }
    assert rows == {"cumsum": "pass", "running_mean": "fail", "conv": "todo"}  # an untouched variant stub is todo
    assert "1/3 puzzles pass" in result.stdout
    assert (
        f"assignment workspace of student {STUDENT}: the assignment's 3 puzzles, your own variant of each puzzle"
        in _one_line(result.stdout)
    )


def test_check_list_and_show_count_the_assignments_points_as_grade_does(
    checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    # The assignment: cumsum = 3 (catalog 2), running_mean = true (catalog 2), conv = 2 (catalog 3).
    folder, result = checked
    doc = json.loads(result.stdout)
    assert {v["puzzle"]: v["max_points"] for v in doc["results"]} == {"cumsum": 3, "running_mean": 2, "conv": 2}
    assert {v["puzzle"]: v["points"] for v in doc["results"]} == {"cumsum": 3, "running_mean": 0, "conv": 0}
    report = jacpuzzles("check", cwd=folder)
    assert "points: 3/7" in report.stdout, report.stdout
    listed = jacpuzzles("list", cwd=folder)
    points = {
        line.split("│")[1].strip(): line.split("│")[3].strip()
        for line in listed.stdout.splitlines()
        if line.count("│") >= 5
    }
    assert points == {"cumsum": "3", "running_mean": "2", "conv": "2"}, listed.stdout
    for name, worth in (("cumsum", "3 points"), ("conv", "2 points")):
        shown = jacpuzzles("show", name, cwd=folder)
        assert f"autodiff chapter · {worth}" in shown.stdout, shown.stdout


def test_show_and_hint_print_the_students_own_text(ws: Path) -> None:
    cumsum = mine("cumsum")
    shown = jacpuzzles("show", "cumsum", "--page", cwd=ws)
    assert shown.returncode == 0, shown.stderr
    out = _one_line(shown.stdout)
    assert "return np.cumsum(x[::-1])[::-1] / 16" in shown.stdout
    assert _one_line(cumsum.statement) in out and "a running total from the right, scaled by 1/16" in out
    assert f"your own variant ({_variants.label(cumsum)}), not the published puzzle" in out
    assert all(_one_line(h) in out for h in cumsum.hints)  # --page: every hint, filled in
    assert "{{" not in shown.stdout
    hint = jacpuzzles("hint", "cumsum", cwd=ws)
    assert hint.returncode == 0, hint.stderr
    assert _one_line(f"Hint 1/3: {cumsum.hints[0]}") in _one_line(hint.stdout)
    assert "weight 1/16" in hint.stdout and "{{" not in hint.stdout
    assert cumsum.hints[0] != _catalog.puzzle_named("cumsum").hints[0]


def test_solution_waits_for_the_students_own_variant_even_with_force(ws: Path) -> None:
    for extra in ((), ("--force",)):
        result = jacpuzzles("solution", "cumsum", *extra, cwd=ws)
        assert result.returncode == 1
        out = _one_line(result.stdout)
        assert "The reference answer to the published cumsum is shown once your own variant passes" in out
        assert "still the untouched stub" in out and "Reference answer:" not in out
        assert ("--force does not apply in a student's workspace" in out) == bool(extra)


def test_solution_after_the_variant_passes_shows_the_published_answer_and_how_it_differs(
    checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    folder, _ = checked
    cumsum, published = mine("cumsum"), _catalog.puzzle_named("cumsum")
    result = jacpuzzles("solution", "cumsum", "--force", cwd=folder)
    assert result.returncode == 0, result.stderr
    out = _one_line(result.stdout)
    assert (
        _stubs.answer_part((SOLUTIONS / "autodiff" / "cumsum.py").read_text()).strip().splitlines()[-1].strip() in out
    )
    assert (
        "Your variant differs: below is the reference answer to the published cumsum (direction=left, scale=20), not "
        f"to yours ({_variants.label(cumsum)})"
        in out
    )
    assert _one_line(published.why) in out and _one_line(cumsum.why) in out  # why, for each
    assert "return (Is >= Os) / 16" not in result.stdout  # never the variant's own answer
    assert "--force" not in out
    wrong = jacpuzzles("solution", "running_mean", cwd=folder)  # the published answer is no pass here
    assert wrong.returncode == 1 and "says fail" in _one_line(wrong.stdout)


def test_reset_puts_back_the_students_own_stub(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    _workspace.init(folder, _assignment.Assignment((("cumsum", 2),), seed=SEED, variants=True, digest="d"), STUDENT)
    path = folder / "autodiff" / "cumsum.py"
    path.write_text(path.read_text() + "\n# my work\n")
    done = _workspace.reset(folder, _catalog.puzzle_named("cumsum"))
    assert path.read_text() == _stubs.stub(mine("cumsum")) and done.backup is not None
    result = jacpuzzles("reset", "cumsum", cwd=folder)
    assert result.returncode == 0 and path.read_text() == _stubs.stub(mine("cumsum"))


def test_the_notebook_holds_the_students_f_and_checks_against_their_variant(
    checked: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder, _ = checked
    out = tmp_path / "mine.ipynb"
    result = jacpuzzles("notebook", str(out), "--dir", str(folder), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    sources = ["".join(c["source"]) for c in json.loads(out.read_text())["cells"]]
    assert "your own variants" in sources[0]
    assert len([s for s in sources if s.startswith("checker.check(")]) == 3
    cumsum = mine("cumsum")
    at = next(k for k, s in enumerate(sources) if s.startswith("## ") and "(`cumsum`)" in s)
    assert _one_line(cumsum.statement) in _one_line(sources[at])
    assert sources[at].endswith("· 3 points")  # the assignment's points (the catalog's: 2)
    conv = next(s for s in sources if s.startswith("## ") and "(`conv`)" in s)
    assert conv.endswith("· 2 points")  # the catalog's: 3
    assert sources[at + 1] == cumsum.code.rstrip()
    assert sources[at + 3] == f'checker.check("cumsum", jac, variant={dict(cumsum.variant)!r})'
    assert not any("{{" in s for s in sources)
    wrong = jacpuzzles(
        "notebook", str(tmp_path / "x.ipynb"), "--chapter", "indexing", "--dir", str(folder), cwd=tmp_path
    )
    assert wrong.returncode == 2 and "none of this assignment's puzzles is in the indexing chapter" in _one_line(
        wrong.stderr
    )


def test_the_notebooks_check_cell_checks_against_the_variant() -> None:
    import jax.numpy as jnp

    from checker import check

    cumsum = mine("cumsum")
    namespace: dict[str, object] = {"np": jnp}
    exec(_stubs.answer_part(variant_answer(cumsum)), namespace)
    jac = namespace["jac"]
    assert check("cumsum", jac, variant=dict(cumsum.variant)).passed  # type: ignore[arg-type]
    assert not check("cumsum", jac).passed  # type: ignore[arg-type]


def test_watch_follows_the_students_variants(ws: Path) -> None:
    from checker.learner._watch import Session

    session = Session(ws)
    session.refresh()
    assert session.order == list(ASSIGNED)
    assert session.status == {n: "todo" for n in ASSIGNED}  # untouched variant stubs, not "unchecked"
    assert session.puzzle("cumsum") == mine("cumsum")
    session.make_current("cumsum")
    session.reveal_hint()
    assert session.hints and session.hints == mine("cumsum").hints[: len(session.hints)]  # the variant's hints


def test_show_mine_draws_against_the_variant(checked: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    from checker.learner._picture import answer_picture

    folder, _ = checked
    picture, verdict = answer_picture(mine("cumsum"), folder / "autodiff" / "cumsum.py")
    assert verdict.passed and picture is not None


def test_the_module_runs_without_jax_for_the_record() -> None:
    code = (
        "import sys, pathlib; from checker.learner import _workspace; _workspace.choices(pathlib.Path('.')); "
        "print('jax' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.stdout.strip() == "False", result.stderr


def test_solution_for_a_puzzle_without_variants_says_it_is_the_students_own(tmp_path: Path) -> None:
    # Every puzzle of the kit has parameters: a pack's puzzle without any (pack new's, its
    # parameters taken out), in a workspace that records the pack.
    import re

    from checker.authoring import _packs

    pack = tmp_path / "course"
    _packs.new(pack)
    catalog = pack / "pack.toml"
    text = catalog.read_text().replace("{{n}}", "5").replace("{{scale}}", "2")
    catalog.write_text(re.sub(r"\[puzzle\.params\.\w+\]\n(?:[^\[\n][^\n]*\n)*", "", text))
    _catalog.use_packs([pack])
    try:
        name = "softsign"
        assert not _catalog.puzzle_named(name).params
        folder = tmp_path / "w"
        _workspace.init(folder, _assignment.Assignment(((name, 2),), seed=SEED, variants=True, digest="d"), STUDENT)
    finally:
        _catalog.use_packs([])
    (folder / "course" / f"{name}.py").write_text((pack / "solutions" / "course" / f"{name}.py").read_text())
    result = jacpuzzles("solution", name, cwd=folder)
    assert result.returncode == 0, result.stdout + result.stderr
    out = _one_line(result.stdout)
    assert f"{name} has no variants: yours is the published puzzle, and this is its reference answer." in out
    assert "Your variant differs" not in out
