"""The command line, end to end through a subprocess, as learners and CI run it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker import puzzles
from checker.engine._catalog import puzzle_named
from checker.engine._sampling import draws
from tests.conftest import REPO, SOLUTIONS


def jacpuzzles(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=cwd, env=env,
        stdin=subprocess.DEVNULL, timeout=300,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A learner's folder: a copy of the stubs, with cumsum solved and neg wrong."""
    shutil.copytree(REPO / "puzzles", tmp_path / "puzzles")
    shutil.copy(SOLUTIONS / "autodiff" / "cumsum.py", tmp_path / "puzzles" / "autodiff" / "cumsum.py")
    neg = tmp_path / "puzzles" / "autodiff" / "neg.py"
    neg.write_text("import numpy as np\n\ndef jac(x):\n    return np.eye(10)\n")
    return tmp_path


def test_check_one_passing_puzzle_exits_0(workspace: Path) -> None:
    result = jacpuzzles("check", "cumsum", cwd=workspace)
    assert result.returncode == 0, result.stderr
    assert "✔ cumsum: PASS" in result.stdout
    count = len(draws(puzzle_named("cumsum"), 0))
    assert count >= 20 and f"correct on all {count} draws (seed 0)" in result.stdout


def test_check_a_wrong_answer_exits_1_with_the_diagnosis(workspace: Path) -> None:
    result = jacpuzzles("check", "neg", cwd=workspace)
    assert result.returncode == 1
    assert "✘ neg: FAIL" in result.stdout
    assert "the Jacobian has the wrong sign" in result.stdout
    # Wrong on every draw: the simplest draw is shown, not named as the one that exposed it.
    assert "draws; shown on the draw with two zero entries (seed 0):" in result.stdout


def test_check_everything_as_json_is_one_object_on_stdout(workspace: Path) -> None:
    result = jacpuzzles("check", "--json", cwd=workspace)
    assert result.returncode == 1
    doc = json.loads(result.stdout)  # the whole of stdout is one JSON document
    assert doc["summary"] == {"pass": 1, "fail": 1, "error": 0, "todo": len(puzzles()) - 2}
    by_name = {r["puzzle"]: r for r in doc["results"]}
    assert [r["puzzle"] for r in doc["results"]][:3] == ["id", "cos", "mean"]
    assert by_name["cumsum"]["status"] == "pass" and by_name["neg"]["status"] == "fail"
    assert by_name["id"]["status"] == "todo"
    assert all(isinstance(r["message"], str) and r["message"] for r in doc["results"])


@pytest.mark.slow  # the README's first command runs the same check in CI, before the tests
def test_the_reference_solutions_all_pass_from_the_command_line() -> None:
    result = jacpuzzles("check", "--dir", "solutions", "--json")
    assert result.returncode == 0, result.stdout[-2000:]
    assert json.loads(result.stdout)["summary"] == {"pass": len(puzzles()), "fail": 0, "error": 0, "todo": 0}


def test_same_seed_same_verdicts_other_seed_other_draws(workspace: Path) -> None:
    first = json.loads(jacpuzzles("check", "neg", "--json", "--seed", "5", cwd=workspace).stdout)
    again = json.loads(jacpuzzles("check", "neg", "--json", "--seed", "5", cwd=workspace).stdout)
    other = json.loads(jacpuzzles("check", "neg", "--json", "--seed", "6", cwd=workspace).stdout)
    assert first == again
    assert first["results"][0]["draw"] != other["results"][0]["draw"]


def test_unknown_puzzle_is_a_usage_error_with_suggestions(workspace: Path) -> None:
    result = jacpuzzles("check", "cumsun", cwd=workspace)
    assert result.returncode == 2
    assert "no puzzle named 'cumsun'; did you mean cumsum?" in result.stderr
    assert result.stdout == ""


def test_missing_answer_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = jacpuzzles("check", "--dir", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert "does not exist" in result.stderr and "--dir" in result.stderr


def test_bad_option_is_a_usage_error() -> None:
    assert jacpuzzles("check", "--seed", "many").returncode == 2
    assert jacpuzzles("frobnicate").returncode == 2


def test_answers_are_found_at_any_depth(tmp_path: Path) -> None:
    deep = tmp_path / "mine" / "week1" / "extra"
    deep.mkdir(parents=True)
    shutil.copy(SOLUTIONS / "autodiff" / "neg.py", deep / "neg.py")
    result = jacpuzzles("check", "neg", "--dir", str(tmp_path / "mine"))
    assert result.returncode == 0, result.stdout


def test_two_files_for_one_puzzle_is_an_error(tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(SOLUTIONS / "autodiff" / "neg.py", tmp_path / sub / "neg.py")
    result = jacpuzzles("check", "neg", "--dir", str(tmp_path), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["results"][0]["status"] == "error"


def test_list_shows_statuses_from_the_last_check_and_progress(workspace: Path) -> None:
    jacpuzzles("check", "cumsum", "neg", cwd=workspace)
    result = jacpuzzles("list", cwd=workspace)
    assert result.returncode == 0
    rows = {
        line.split("│")[1].strip(): line.split("│")[-1].strip()
        for line in result.stdout.splitlines()
        if line.count("│") >= 4
    }
    assert rows["cumsum"] == "pass" and rows["neg"] == "fail" and rows["prod"] == "todo"
    assert f"1/{len(puzzles())} puzzles pass" in result.stdout
    (workspace / "puzzles" / "autodiff" / "neg.py").write_text("def jac(x):\n    return -1\n")
    rows_after = jacpuzzles("list", cwd=workspace).stdout
    assert any("neg" in line and "unchecked" in line for line in rows_after.splitlines())


def _list_at(width: int, cwd: Path) -> list[str]:
    env = {**os.environ, "COLUMNS": str(width)}
    result = subprocess.run(
        [sys.executable, "-m", "checker", "list"], capture_output=True, text=True, cwd=cwd, env=env,
        stdin=subprocess.DEVNULL, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("width", [160, 100, 80, 60])
def test_list_keeps_every_puzzle_name_whole_and_its_lines_apart(workspace: Path, width: int) -> None:
    from checker.learner import _state

    cumsum = workspace / "puzzles" / "autodiff" / "cumsum.py"
    _state.record(workspace / "puzzles", {"cumsum": ("pass", _state.digest(cumsum))})  # one pass: the bar draws
    lines = _list_at(width, workspace)
    assert all(len(line) <= width for line in lines)
    names = [line.split("│")[1].strip() for line in lines if line.count("│") >= 3]
    for p in puzzles():  # superposition_lookup_vectored and ..._1d both whole, not `superposition_lookup_ve…`
        assert names.count(p.name) == 1, f"{p.name} not shown whole at {width} columns"
    assert not any("…" in line for line in lines)
    at = next(k for k, line in enumerate(lines) if f"1/{len(puzzles())} puzzles pass" in line)
    assert lines[at + 1] == '"unchecked": changed since the last `jacpuzzles check`'  # not glued to the bar
    cumsum_row = next(line for line in lines if line.count("│") >= 3 and line.split("│")[1].strip() == "cumsum")
    assert "pass" in cumsum_row and "★" in cumsum_row


def test_list_folds_names_too_long_for_a_narrow_terminal_instead_of_cutting_them(workspace: Path) -> None:
    lines = _list_at(40, workspace)
    assert all(len(line) <= 40 for line in lines)
    assert not any("…" in line for line in lines)
    cells = "".join(line.split("│")[1].strip() for line in lines if line.count("│") >= 3)
    for p in puzzles():
        assert p.name in cells


def test_show_prints_statement_f_and_signature() -> None:
    result = jacpuzzles("show", "conv")
    assert result.returncode == 0
    assert "y_{4-k}" in result.stdout
    assert 'return np.convolve(x, y, mode="valid") / 5' in result.stdout
    assert 'def jac(x: Shaped[Array, "10"], y: Shaped[Array, "5"])' in result.stdout
    assert "Jacobian shapes: (6, 10), (6, 5)" in result.stdout


def test_each_hint_call_reveals_the_next_hint(workspace: Path) -> None:
    first = jacpuzzles("hint", "prod", cwd=workspace).stdout
    second = jacpuzzles("hint", "prod", cwd=workspace).stdout
    assert "Hint 1/3" in first and "Hint 2/3" not in first
    assert "Hint 1/3" in second and "Hint 2/3" in second
    jacpuzzles("hint", "prod", cwd=workspace)
    last = jacpuzzles("hint", "prod", cwd=workspace).stdout
    assert "Hint 3/3" in last and "No more hints" in last


def test_after_the_last_hint_the_learner_is_sent_to_a_page_every_install_has(tmp_path: Path) -> None:
    # The package alone, as a wheel installs it: no docs/, no puzzles/, no solutions/ beside it.
    site = tmp_path / "site"
    shutil.copytree(REPO / "checker", site / "checker", ignore=shutil.ignore_patterns("__pycache__", "solutions"))
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(site)}

    def run(*args: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "checker", *args],
            capture_output=True,
            text=True,
            cwd=home,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return " ".join(result.stdout.split())

    for _ in range(3):
        run("hint", "prod", "--dir", ".")
    last = run("hint", "prod", "--dir", ".")
    assert "docs/" not in last
    assert "No more hints: `jacpuzzles show prod --page` shows the puzzle's whole page" in last
    page = run("show", "prod", "--page")
    prod = puzzle_named("prod")
    assert "What your answer is tried on" in page
    assert f"{len(draws(prod, 0))} draws on seed 0" in page and "x: zero entry; two zero entries" in page
    for k, hint in enumerate(prod.hints, 1):
        assert f"Hint {k}/3: " + " ".join(hint.split()) in page
    assert "jacpuzzles show prod --svg prod.svg" in page and "jacpuzzles solution prod" in page


def test_dev_check_finds_no_drift_in_the_repository() -> None:
    result = jacpuzzles("dev", "check")
    assert result.returncode == 0, result.stdout
    assert "generated files match the catalog" in result.stdout


def test_console_script_and_module_are_the_same_command() -> None:
    exe = shutil.which("jacpuzzles")
    assert exe is not None, "the console script is installed with the package"
    result = subprocess.run([exe, "show", "id"], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0 and "def id(" in result.stdout


def test_watch_rechecks_a_puzzle_when_its_file_is_saved(workspace: Path) -> None:
    import time

    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "checker", "watch"], cwd=workspace, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert proc.stdout is not None
        assert "watching" in proc.stdout.readline()
        time.sleep(1.0)  # let the watcher settle before the save
        shutil.copy(SOLUTIONS / "autodiff" / "neg.py", workspace / "puzzles" / "autodiff" / "neg.py")
        deadline = time.monotonic() + 120
        seen = ""
        while "neg: PASS" not in seen and time.monotonic() < deadline:
            seen += proc.stdout.readline()
        assert "✔ neg: PASS" in seen
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_show_says_1_point_in_the_singular() -> None:
    # Not "Doubling (id) · autodiff chapter · 1 points".
    one = jacpuzzles("show", "id")
    assert one.returncode == 0 and "· 1 point\n" in one.stdout and "1 points" not in one.stdout
    two = jacpuzzles("show", "cumsum")
    assert "· 2 points\n" in two.stdout


def test_version_prints_the_installed_kits_version() -> None:
    from importlib.metadata import version

    result = jacpuzzles("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"jacpuzzles {version('jacpuzzles')}"


def _at_80_columns(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "COLUMNS": "80"}, stdin=subprocess.DEVNULL, timeout=300)


@pytest.mark.parametrize(
    "name", ["softmax", "superposition_lookup_corrected", "logsumexp"]
)  # lines of 106 to 110 columns
def test_solution_at_80_columns_prints_every_code_line_whole(name: str) -> None:
    import ast
    import textwrap

    from checker.engine._stubs import answer_part

    result = _at_80_columns("solution", name, "--force")
    assert result.returncode == 0, result.stderr
    answer = answer_part((SOLUTIONS / puzzle_named(name).chapter / f"{name}.py").read_text()).strip("\n")
    assert max(len(line) for line in answer.splitlines()) > 80  # the case: a line wider than the terminal
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == answer.splitlines()[0].strip())
    shown = "\n".join(line.rstrip() for line in lines[start:start + len(answer.splitlines())])
    assert textwrap.dedent(shown) == "\n".join(
        line.rstrip() for line in answer.splitlines()
    )  # as copied: the file's code
    ast.parse(textwrap.dedent(shown))


def test_show_at_80_columns_keeps_code_whole_and_wraps_the_statement_once() -> None:
    result = _at_80_columns("show", "conv2d")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert 'def conv2d(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> Shaped[Array, "16"]:\n' in out
    assert (
        'def jac(x: Shaped[Array, "16"], y: Shaped[Array, "4"]) -> tuple[Shaped[Array, "16 16"], Shaped[Array, "16 '
        '4"]]:\n'
        in out
    )
    statement = out.split("\n\n")[0].splitlines()[1:]  # the first paragraph, under the title line
    # Wrapped once: each line but the last fills the terminal to within a word, none is a stub.
    assert len(statement) >= 2 and all(len(line.rstrip()) > 60 for line in statement[:-1]), statement
