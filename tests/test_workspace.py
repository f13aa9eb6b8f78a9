"""The learner's loop outside the repository: init, reset, list, solution, and the one-line badge."""

from __future__ import annotations

import datetime
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from checker.authoring import _generate
from checker.engine import _badge, _catalog, _solutions, _stubs
from checker.engine._report import VerdictView, summary_table, to_json
from checker.engine._verdict import Status, Verdict
from checker.learner import _workspace
from tests.conftest import REPO, SOLUTIONS

CUMSUM = _catalog.puzzle_named("cumsum")


def jacpuzzles(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=cwd, env=env,
        stdin=subprocess.DEVNULL, timeout=300,
    )


def list_rows(stdout: str) -> dict[str, tuple[str, str]]:
    """`jacpuzzles list` as puzzle -> (badge, status)."""
    rows = [line.split("│") for line in stdout.splitlines() if line.count("│") >= 5]
    return {cells[1].strip(): (cells[-2].strip(), cells[-1].strip()) for cells in rows}


@pytest.fixture(scope="session")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A workspace made by `init`, with cumsum solved (the reference answer) and checked from a subfolder."""
    base = tmp_path_factory.mktemp("learner")
    assert jacpuzzles("init", "ws", cwd=base).returncode == 0
    ws = base / "ws"
    (ws / "autodiff" / "cumsum.py").write_text((SOLUTIONS / "autodiff" / "cumsum.py").read_text())
    return ws, jacpuzzles("check", "cumsum", cwd=ws / "indexing")


# ---- init ----------------------------------------------------------------------------------


def test_init_writes_every_stub_by_chapter_and_marks_a_workspace(tmp_path: Path) -> None:
    result = jacpuzzles("init", "course/mine", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ws = tmp_path / "course" / "mine"
    for p in _catalog.puzzles():
        assert (ws / p.chapter / f"{p.name}.py").read_text() == _stubs.stub(p)
    assert sorted(path.name for path in ws.iterdir()) == [".jacpuzzles", "autodiff", "indexing", "layers"]
    assert _workspace.marker(ws).is_file()
    assert "Made a workspace in course/mine: 58 puzzle stubs" in result.stdout
    assert "cd course/mine" in result.stdout and "jacpuzzles check id" in result.stdout


def test_init_into_an_existing_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    assert jacpuzzles("init", "here", cwd=tmp_path).returncode == 0
    assert len(_stubs.find_answers(tmp_path / "here")) == len(_catalog.puzzles())


def test_init_refuses_to_overwrite_answers_and_writes_nothing(tmp_path: Path) -> None:
    mine = tmp_path / "ws" / "week1" / "cumsum.py"
    mine.parent.mkdir(parents=True)
    mine.write_text("# my work\n")
    result = jacpuzzles("init", "ws", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    message = " ".join(result.stderr.split())
    assert "ws already holds 1 answer file: ws/week1/cumsum.py" in message
    assert "Nothing was written" in message and "jacpuzzles reset NAME --dir ws" in message
    assert mine.read_text() == "# my work\n"
    assert sorted(p.name for p in (tmp_path / "ws").iterdir()) == ["week1"]


def test_init_onto_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    result = jacpuzzles("init", "taken", cwd=tmp_path)
    assert result.returncode == 2 and "is not a folder" in result.stderr


# ---- finding the workspace -------------------------------------------------------------------


def test_default_dir_is_the_enclosing_workspace_else_puzzles(tmp_path: Path) -> None:
    _workspace.init(tmp_path / "ws")
    assert _workspace.default_dir(tmp_path / "ws") == Path(".")
    assert _workspace.default_dir(tmp_path / "ws" / "indexing") == (tmp_path / "ws").resolve()
    assert _workspace.default_dir(tmp_path) == Path("puzzles")


def test_a_command_outside_any_workspace_says_how_to_make_one(tmp_path: Path) -> None:
    result = jacpuzzles("check", "cumsum", cwd=tmp_path)
    assert result.returncode == 2
    assert "jacpuzzles init DIR" in " ".join(result.stderr.split())


# ---- reset ---------------------------------------------------------------------------------


def test_two_resets_keep_two_backups(tmp_path: Path) -> None:
    _workspace.init(tmp_path / "ws")
    ws = tmp_path / "ws"
    answer = ws / "autodiff" / "neg.py"
    contents = []
    for attempt in ("first try", "second try"):
        answer.write_text(_stubs.stub(_catalog.puzzle_named("neg")) + f"# {attempt}\n")
        contents.append(answer.read_text())
        result = jacpuzzles("reset", "neg", cwd=ws / "autodiff")
        assert result.returncode == 0, result.stderr
        assert "Your previous file is kept at" in result.stdout
        assert answer.read_text() == _stubs.stub(_catalog.puzzle_named("neg"))
    backups = sorted((ws / ".jacpuzzles" / "backups").iterdir())
    assert sorted(p.read_text() for p in backups) == sorted(contents)  # two backups, nothing lost
    assert all(p.name.startswith("neg-") for p in backups)
    # An untouched stub has nothing to keep, and reset says so.
    result = jacpuzzles("reset", "neg", cwd=ws)
    assert "nothing of yours to keep" in result.stdout
    assert len(list((ws / ".jacpuzzles" / "backups").iterdir())) == 2
    # Backups live in a hidden folder: never taken for answer files.
    assert _stubs.find_answers(ws)["neg"] == [answer]


def test_backup_names_never_reuse_an_existing_one(tmp_path: Path) -> None:
    now = datetime.datetime(2026, 1, 2, 3, 4, 5)
    first = _workspace.backup_path(tmp_path, "neg", now)
    assert first == tmp_path / ".jacpuzzles" / "backups" / "neg-20260102-030405.py"
    first.parent.mkdir(parents=True)
    first.write_text("kept")
    second = _workspace.backup_path(tmp_path, "neg", now)
    assert second.name == "neg-20260102-030405-2.py"


def test_reset_writes_a_missing_stub_and_refuses_duplicates(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    done = _workspace.reset(tmp_path, CUMSUM)
    assert done.backup is None and done.path == tmp_path / "autodiff" / "cumsum.py"
    (tmp_path / "a" / "cumsum.py").write_text("")
    result = jacpuzzles("reset", "cumsum", "--dir", ".", cwd=tmp_path)
    assert result.returncode == 2 and "2 files named cumsum.py" in result.stderr
    result = jacpuzzles("reset", "cumsum", "--dir", "nowhere", cwd=tmp_path)
    assert result.returncode == 2 and "jacpuzzles init nowhere" in result.stderr


# ---- list, check and solution in a workspace ---------------------------------------------------


def test_check_from_inside_the_workspace_passes_with_the_badge(
    solved: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    ws, result = solved
    assert result.returncode == 0, result.stdout + result.stderr
    assert "✔ cumsum: PASS" in result.stdout
    assert "★ one line (26 columns): the original challenge" in result.stdout
    assert (ws / _state_file()).is_file()  # progress lives in the workspace


def _state_file() -> str:
    from checker.learner._state import STATE_FILE

    return STATE_FILE


def test_list_shows_solved_with_the_badge_and_never_imports_jax(
    solved: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    ws, _ = solved
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "checker", "list"], capture_output=True, text=True,
        cwd=ws / "autodiff", env=env, stdin=subprocess.DEVNULL, timeout=120,
    )
    assert result.returncode == 0
    rows = list_rows(result.stdout)
    assert rows["cumsum"] == ("★", "pass")
    assert rows["neg"] == ("", "todo") and len(rows) == len(_catalog.puzzles())
    assert "1/58 puzzles pass" in result.stdout
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "checker.cli._cli" in imported
    assert not {m for m in imported if m == "jax" or m.startswith(("jax.", "jaxlib"))}


def test_solution_is_refused_before_passing_and_shown_with_force(tmp_path: Path) -> None:
    _workspace.init(tmp_path)
    result = jacpuzzles("solution", "cumsum", cwd=tmp_path)
    assert result.returncode == 1
    message = " ".join(result.stdout.split())
    assert "The reference answer to cumsum is shown once your answer passes" in message
    assert "autodiff/cumsum.py is still the untouched stub" in message
    assert "jacpuzzles solution cumsum --force" in message
    assert "Reference answer" not in result.stdout and "(Is <= Os) / 20" not in result.stdout
    forced = jacpuzzles("solution", "cumsum", "--force", cwd=tmp_path)
    assert forced.returncode == 0
    assert "return (Is <= Os) / 20" in forced.stdout
    assert "Why it is right" in forced.stdout and "shown with --force" in forced.stdout


def test_solution_with_no_answer_file_says_where_it_belongs(tmp_path: Path) -> None:
    result = jacpuzzles("solution", "neg", "--dir", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert "there is no neg.py under . (expected at autodiff/neg.py)" in " ".join(result.stdout.split())


def test_solution_after_passing_and_after_a_stale_record(solved: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    ws, _ = solved
    shown = jacpuzzles("solution", "cumsum", cwd=ws)
    assert shown.returncode == 0, shown.stdout
    assert "checking it now" not in shown.stdout  # the recorded pass is current
    assert "return (Is <= Os) / 20" in shown.stdout
    assert " ".join(CUMSUM.why.split()[:6]) in " ".join(shown.stdout.split())
    # A passing answer edited since its check is checked again, then shown.
    path = ws / "autodiff" / "cumsum.py"
    path.write_text(path.read_text() + "# tidied\n")
    again = jacpuzzles("solution", "cumsum", cwd=ws)
    assert again.returncode == 0
    assert "changed since its last check: checking it now" in again.stdout and "Why it is right" in again.stdout
    # A wrong answer is checked, and refused.
    (ws / "autodiff" / "neg.py").write_text("import jax.numpy as np\n\ndef jac(x):\n    return np.eye(10)\n")
    refused = jacpuzzles("solution", "neg", cwd=ws)
    assert refused.returncode == 1
    assert "✘ neg: FAIL" in refused.stdout  # the fresh verdict is shown
    assert "the last check of autodiff/neg.py says fail" in " ".join(refused.stdout.split())


# ---- the reference answers and their explanations ----------------------------------------------


def test_every_puzzle_explains_its_reference_answer() -> None:
    assert _solutions.missing_explanations() == []
    for p in _catalog.puzzles():
        assert 40 <= len(p.why) <= 600, p.name
        assert _solutions.reference(p) == (SOLUTIONS / _stubs.relative_path(p)).read_text()


def test_a_stale_packaged_copy_in_the_source_tree_is_drift(tmp_path: Path) -> None:
    assert _solutions.packaged_drift(REPO) == []
    _generate.generate(tmp_path)
    copy = tmp_path / "checker" / "_data" / "solutions" / "autodiff"
    copy.mkdir(parents=True)
    (copy / "neg.py").write_text("stale\n")
    problems = _generate.drift(tmp_path)
    assert any("solutions/autodiff/neg.py: differs from" in p for p in problems)
    assert any("solutions/autodiff/cumsum.py: differs from" in p for p in problems)  # missing from the copy


# ---- the one-line badge ----------------------------------------------------------------------


def answer(body: str) -> str:
    return _stubs.stub(CUMSUM).split(_stubs.MARKER)[0] + _stubs.MARKER + "\n" + body


def test_the_badge_rule_on_the_reference_answers() -> None:
    assert _badge.one_line_width((SOLUTIONS / "autodiff" / "cumsum.py").read_text()) == 26
    assert _badge.one_line_width((SOLUTIONS / "autodiff" / "conv.py").read_text()) is None  # three lines
    gather_vjp = _catalog.puzzle_named("gather_vjp")
    assert _badge.one_line_width((SOLUTIONS / "indexing" / "gather_vjp.py").read_text(), "vjp") is None
    one_line_vjp = "def vjp(e, idx, g):\n    return np.zeros((27, 4)).at[idx].add(g)\n"
    assert _badge.one_line_width(answer(one_line_vjp), gather_vjp.answer_name) == 43
    assert _badge.one_line_width(answer(one_line_vjp), "jac") is None  # not the function asked for
    for p in _catalog.puzzles():
        assert _badge.one_line_width(_stubs.stub(p), p.answer_name) is None  # a stub raises


@pytest.mark.parametrize(
    ("body", "width"),
    [
        ("def jac(x):\n    return " + "1" * 69 + "\n", 80),  # exactly 80 columns
        ("def jac(x):\n    return " + "1" * 70 + "\n", None),  # 81
        ("def jac(x):\n    return 1" + "  # " + "c" * 90 + "\n", 12),  # a comment does not count
        ('def jac(x):\n    """The Jacobian."""\n    # explained\n    return 1\n', 12),  # docstring, comment
        ("def jac(x): return 1\n", 20),  # on the def line: the whole line counts
        ("def jac(x):\n    return (1 +\n            2)\n", None),  # one statement, two lines
        ("def jac(x):\n    return 1 + \\\n        2\n", None),  # a continued line
        ("def jac(x):\n    y = 1; return y\n", None),  # two statements on one line
        ("def jac(x):\n    y = 1\n    return y\n", None),
        ("def jac(x):\n    pass\n", None),
        ("def jac(x):\n    return\n", None),  # returns nothing
        ("Is = np.arange(10)\nOs = Is[:, None]\n\ndef jac(x):\n    return (Is <= Os) / 20\n", 26),  # constants
        ("import numpy\nfrom math import pi\n\ndef jac(x):\n    return pi\n", 13),  # imports
        ("'''notes'''\ndef jac(x):\n    return 1\n", 12),  # a module docstring
        ("def h(x):\n    return x\n\ndef jac(x):\n    return h(x)\n", None),  # a helper function
        ("h = lambda x: x\n\ndef jac(x):\n    return h(x)\n", None),  # a helper lambda
        ("class H:\n    pass\n\ndef jac(x):\n    return 1\n", None),
        ("T = np.ones(" + "1" * 80 + ")\n\ndef jac(x):\n    return T\n", None),  # a constant over 80
        ("if True:\n    pass\n\ndef jac(x):\n    return 1\n", None),  # other code
        ("@jax.jit\ndef jac(x):\n    return 1\n", None),  # a decorator
        ("def jac(x):\n    return 1\n\ndef jac(x):\n    return 2\n", None),  # defined twice
        ("def jac(x):\n    return 'é' * 2" + " " * 3 + "\n", 18),  # columns are characters, not bytes
        ("def jac(x)\n    return 1\n", None),  # does not parse
        ("def other(x):\n    return 1\n", None),  # no jac
    ],
)
def test_badge_edge_cases(body: str, width: int | None) -> None:
    assert _badge.one_line_width(answer(body)) == width


def test_a_file_without_the_marker_is_read_whole() -> None:
    assert _badge.one_line_width("import jax.numpy as np\n\ndef jac(x):\n    return -np.eye(10)\n") == 22


def _render(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None, highlight=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def test_the_report_shows_the_badge_only_where_given() -> None:
    passed = Verdict("cumsum", Status.PASS, "correct on all 44 draws (seed 0)")
    other = Verdict("neg", Status.PASS, "correct on all 44 draws (seed 0)")
    assert "★ one line (26 columns): the original challenge" in _render(VerdictView(passed, 26))
    assert "★" not in _render(VerdictView(passed))
    table = _render(summary_table([passed, other], {"cumsum": 2, "neg": 1}, {"cumsum": 26}))
    assert "cumsum │ ✔ pass ★" in table and "neg    │ ✔ pass  " in table
    doc = to_json([passed, other], None, {"cumsum": 26})
    assert [r["one_line"] for r in doc["results"]] == [26, None]
    assert "one_line" not in to_json([passed])["results"][0]
    json.dumps(doc)
